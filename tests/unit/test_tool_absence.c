// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of tools/absence.c: the module's absence told apart from
 * the facts (fleet issue: not built, refused at load, lockdown).
 */
#include <string.h>

#include "../../tools/absence.h"
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

/* No module file: what DKMS knows says which fix applies. */
static struct msl_absence missing(const char *ver, bool headers, bool built,
				  bool failed)
{
	struct msl_absence_facts f = {
		.kernel = "6.13.0-1-amd64", .ko_signed = -1,
		.dkms_version = ver, .kernel_re = "^(6\\.1|6\\.12|7\\.3)\\.",
		.headers = headers, .built = built,
		.make_log = failed ? "/var/lib/dkms/memcg-softlimit/0.2.0/build/make.log" : NULL,
		.make_log_failed = failed,
	};
	struct msl_absence a;

	msl_absence_classify(&f, &a);
	return a;
}

static void not_built_and_why(void)
{
	struct msl_absence_facts f = { .kernel = "6.12.9-1-amd64" };
	struct msl_absence a;
	char buf[64];

	CHECK(!strcmp(msl_absence_kernels("^(6\\.1|6\\.12|7\\.3)\\.", buf, sizeof(buf)), "6.1, 6.12, 7.3"));
	CHECK(!strcmp(msl_absence_kernels("^6\\.", buf, sizeof(buf)), "^6\\."));
	/* No DKMS sources at all: the package. */
	a = missing(NULL, true, false, false);
	CHECK(a.why == MSL_ABSENT_NOT_BUILT && strstr(a.text, "install memcg-softlimit-dkms"));
	/* Outside dkms.conf's kernels: the supported list. */
	a = missing("0.2.0", true, false, false);
	CHECK(a.why == MSL_ABSENT_UNSUPPORTED);
	CHECK(!strcmp(msl_absence_word(a.why), "unsupported_kernel"));
	CHECK(strstr(a.text, "6.1, 6.12, 7.3") && strstr(a.text, "not for 6.13.0-1-amd64"));
	CHECK(strstr(a.text, "it was not built for it"));
	/* A supported kernel without its headers. */
	f.dkms_version = "0.2.0";
	f.kernel_re = "^(6\\.1|6\\.12|7\\.3)\\.";
	msl_absence_classify(&f, &a);
	CHECK(a.why == MSL_ABSENT_NO_HEADERS);
	CHECK(!strcmp(msl_absence_word(a.why), "no_headers"));
	CHECK(strstr(a.text, "apt-get install linux-headers-6.12.9-1-amd64"));
	/* Headers, and a build that failed: its log. */
	f.headers = true;
	f.make_log = "/var/lib/dkms/memcg-softlimit/0.2.0/build/make.log";
	f.make_log_failed = true;
	msl_absence_classify(&f, &a);
	CHECK(a.why == MSL_ABSENT_BUILD_FAILED);
	CHECK(!strcmp(msl_absence_word(a.why), "build_failed"));
	CHECK(strstr(a.text, "/var/lib/dkms/memcg-softlimit/0.2.0/build/make.log says why"));
	/* Built once, then uninstalled (or a log of another kernel): install. */
	f.built = true;
	msl_absence_classify(&f, &a);
	CHECK(a.why == MSL_ABSENT_NOT_BUILT && strstr(a.text, "dkms install memcg-softlimit/0.2.0 -k 6.12.9-1-amd64"));
	f.built = false;
	f.make_log_failed = false;
	msl_absence_classify(&f, &a);
	CHECK(a.why == MSL_ABSENT_NOT_BUILT);
}

int main(void)
{
	RUN("tool_absence", not_built);
	RUN("tool_absence", refused_at_load);
	RUN("tool_absence", key_not_enrolled);
	RUN("tool_absence", merely_not_loaded);
	RUN("tool_absence", not_built_and_why);
	return 0;
}
