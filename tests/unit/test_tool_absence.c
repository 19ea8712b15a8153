// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of tools/absence.c: the module's absence told apart from
 * the facts (fleet issue: not built, refused at load, lockdown).
 */
#include <string.h>

#include "../../tools/msl.h"
#include "unit.h"

static const char refused_log[] =
	"[    1.000000] memcg_softlimit: hooked shrink_node\n"
	"<3>[    2.500000] memcg_softlimit: refusing to load: struct scan_control: no field priority\n"
	"[    3.000000] other: noise\n";
/* As SYSLOG_ACTION_READ_ALL gives it: with the level. */
static const char lockdown_log[] =
	"<5>[    1.2] Lockdown: modprobe: unsigned module loading is restricted; see man kernel_lockdown.7\n";
static const char key_log[] =
	"[    1.2] Loading of module with unavailable key is rejected\n";

static struct msl_absence classify(const char *ko, int is_signed,
				   const char *lockdown, bool enforce,
				   const char *kmsg)
{
	struct msl_absence_facts f = {
		.kernel = "6.13.0-1-amd64", .ko_path = ko, .ko_signed = is_signed,
		.lockdown = lockdown, .sig_enforced = enforce, .kmsg = kmsg,
	};
	struct msl_absence a;

	msl_absence_classify(&f, &a);
	return a;
}

static void not_built(void)
{
	struct msl_absence a = classify(NULL, -1, NULL, false, refused_log);

	CHECK(a.why == MSL_ABSENT_NOT_BUILT);
	CHECK(strstr(a.text, "6.13.0-1-amd64") && strstr(a.text, "not built"));
	CHECK(!strcmp(msl_absence_word(a.why), "not_built"));
}

static void refused_at_load(void)
{
	struct msl_absence a = classify("/lib/modules/x/updates/dkms/memcg_softlimit.ko",
					1, "[none] integrity confidentiality",
					false, refused_log);

	CHECK(a.why == MSL_ABSENT_REFUSED);
	CHECK(!strcmp(a.detail, "memcg_softlimit: refusing to load: struct scan_control: no field priority"));
	CHECK(strstr(a.text, "struct scan_control: no field priority") != NULL);
	/* A later successful load means the refusal is old news. */
	a = classify("/m.ko", 1, NULL, false,
		     "memcg_softlimit: refusing to load: x\nmemcg_softlimit: hooked shrink_node\n");
	CHECK(a.why == MSL_ABSENT_NOT_LOADED);
	/* Lines of its own after the refusal do not hide it. */
	a = classify("/m.ko", 1, NULL, false,
		     "memcg_softlimit: hooked a\nmemcg_softlimit: refusing to load: y\nmemcg_softlimit: cleaned up\n");
	CHECK(a.why == MSL_ABSENT_REFUSED && strstr(a.text, ": y"));
}

static void key_not_enrolled(void)
{
	struct msl_absence a;

	a = classify("/m.ko", 1, "none [integrity] confidentiality", false,
		     lockdown_log);
	CHECK(a.why == MSL_ABSENT_LOCKDOWN);
	CHECK(strstr(a.text, "Secure Boot lockdown") && strstr(a.text, "mokutil"));
	CHECK(!strcmp(a.detail, "Lockdown: modprobe: unsigned module loading is restricted; see man kernel_lockdown.7"));
	a = classify("/m.ko", 1, "none [integrity] confidentiality", false,
		     key_log);
	CHECK(a.why == MSL_ABSENT_LOCKDOWN);
	/* Unsigned under lockdown, nothing logged yet (never tried). */
	a = classify("/m.ko", 0, "none [integrity] confidentiality", false, "");
	CHECK(a.why == MSL_ABSENT_LOCKDOWN);
	CHECK(strstr(a.detail, "not signed") != NULL);
	a = classify("/m.ko", -1, NULL, true, key_log);
	CHECK(a.why == MSL_ABSENT_LOCKDOWN && strstr(a.text, "sig_enforce"));
	/* No lockdown, no enforcement: a signature message is not ours. */
	a = classify("/m.ko", 0, "[none] integrity confidentiality", false,
		     key_log);
	CHECK(a.why == MSL_ABSENT_NOT_LOADED);
}

static void merely_not_loaded(void)
{
	struct msl_absence a = classify("/m.ko", 1, NULL, false, NULL);

	CHECK(a.why == MSL_ABSENT_NOT_LOADED);
	CHECK(strstr(a.text, "modprobe memcg_softlimit") != NULL);
}

int main(void)
{
	RUN("tool_absence", not_built);
	RUN("tool_absence", refused_at_load);
	RUN("tool_absence", key_not_enrolled);
	RUN("tool_absence", merely_not_loaded);
	return 0;
}
