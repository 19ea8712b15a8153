// SPDX-License-Identifier: GPL-2.0
/*
 * Why the module is not loaded, precisely, for status and every error
 * that needs the module: no module built for the running kernel (dkms
 * builds only for kernels in dkms.conf's range that have headers); the
 * module refused to load (its one "refusing to load" line in the kernel
 * log names what is missing); Secure Boot or lockdown refused it (its
 * signing key is not enrolled); or it is there and merely not loaded.
 * msl_absence_classify() is pure, for the unit tests; msl_absence_probe()
 * gathers the facts from this machine.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <regex.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <linux/kernel.h>

#include "absence.h"
#include "msl.h"

#define REFUSING	MSL_MODULE_NAME ": refusing to load: "
#define HOOKED		MSL_MODULE_NAME ": hooked "
#define SIG_MAGIC	"~Module signature appended~\n"

/* Where @needle last occurs in @log, -1 if nowhere. */
static long last_pos(const char *log, const char *needle)
{
	const char *p = log, *hit = NULL;

	while ((p = strstr(p, needle))) {
		hit = p;
		p += strlen(needle);
	}
	return hit ? (long)(hit - log) : -1;
}

/* The last line of @log containing @needle, into @buf; false if none. */
static bool last_line_with(const char *log, const char *needle, char *buf,
			   size_t len)
{
	const char *hit = NULL, *p = log, *start, *end;

	while (log && (p = strstr(p, needle))) {
		hit = p;
		p += strlen(needle);
	}
	if (!hit)
		return false;
	for (start = hit; start > log && start[-1] != '\n'; start--)
		;
	end = strchr(hit, '\n');
	if (!end)
		end = hit + strlen(hit);
	/*
	 * Without the "<5>" and "[  12.345678] " of the kernel log
	 * (SYSLOG_ACTION_READ_ALL gives both).
	 */
	if (*start == '<' && strchr(start, '>') && strchr(start, '>') < end)
		start = strchr(start, '>') + 1;
	if (*start == '[' && strchr(start, ']') && strchr(start, ']') < end)
		start = strchr(start, ']') + 1;
	while (*start == ' ')
		start++;
	snprintf(buf, len, "%.*s", (int)(end - start), start);
	return true;
}

/* The kernel refused a module for its signature (module_sig_check). */
static bool signature_refused(const char *log, char *buf, size_t len)
{
	static const char *const lines[] = {
		"unsigned module loading is restricted",	/* lockdown */
		"Loading of module with unavailable key is rejected",
		"Loading of unsigned module is rejected",
		"Loading of module with unsupported crypto is rejected",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lines); i++)
		if (last_line_with(log, lines[i], buf, len))
			return true;
	return false;
}

static bool lockdown_active(const char *lockdown)
{
	return lockdown && !strstr(lockdown, "[none]");
}

const char *msl_absence_kernels(const char *re, char *buf, size_t len)
{
	const char *p = re, *end;
	size_t o = 0;

	/* ^( alternatives )\. : each a release prefix, dots escaped */
	if (strncmp(p, "^(", 2) || !(end = strstr(p, ")\\.")) ||
	    strcmp(end, ")\\.")) {
		snprintf(buf, len, "%s", re);
		return buf;
	}
	for (p += 2; p < end && o + 2 < len; p++) {
		if (*p == '\\')
			continue;
		if (*p == '|') {
			o += (size_t)snprintf(buf + o, len - o, ", ");
			continue;
		}
		buf[o++] = *p;
	}
	buf[o < len ? o : len - 1] = '\0';
	return buf;
}

static bool kernel_supported(const char *re, const char *kernel)
{
	regex_t rx;
	bool ok;

	if (!re || regcomp(&rx, re, REG_EXTENDED | REG_NOSUB))
		return true;	/* unknown: not the reason */
	ok = !regexec(&rx, kernel, 0, NULL, 0);
	regfree(&rx);
	return ok;
}

/* No module file: not built, and, where DKMS can tell, why. */
static void not_built(const struct msl_absence_facts *f,
		      struct msl_absence *out)
{
	char head[256], list[64];

	snprintf(head, sizeof(head),
		 "no %s module for the running kernel %s (none under /lib/modules/%s): it was not built for it",
		 MSL_MODULE_NAME, f->kernel, f->kernel);
	out->why = MSL_ABSENT_NOT_BUILT;
	if (!f->dkms_version) {
		snprintf(out->text, sizeof(out->text),
			 "%s; DKMS has no memcg-softlimit sources: install memcg-softlimit-dkms (or make dkms-install from the sources)",
			 head);
	} else if (!kernel_supported(f->kernel_re, f->kernel)) {
		out->why = MSL_ABSENT_UNSUPPORTED;
		snprintf(out->text, sizeof(out->text),
			 "%s; dkms.conf builds it for the kernels it is tested on, %s, and not for %s: boot one of those (Debian: linux-image-amd64, or from bookworm-backports)",
			 head, msl_absence_kernels(f->kernel_re, list,
						   sizeof(list)), f->kernel);
	} else if (!f->headers) {
		out->why = MSL_ABSENT_NO_HEADERS;
		snprintf(out->text, sizeof(out->text),
			 "%s; its headers are not installed: apt-get install linux-headers-%s (the package's kernel hook then builds it; or /etc/kernel/postinst.d/memcg-softlimit %s)",
			 head, f->kernel, f->kernel);
	} else if (!f->built && f->make_log_failed) {
		out->why = MSL_ABSENT_BUILD_FAILED;
		snprintf(out->detail, sizeof(out->detail), "%s", f->make_log);
		snprintf(out->text, sizeof(out->text),
			 "%s; dkms's build of memcg-softlimit %s failed for it: %s says why",
			 head, f->dkms_version, f->make_log);
	} else {
		snprintf(out->text, sizeof(out->text),
			 "%s; `dkms status` says which kernels have one: dkms install memcg-softlimit/%s -k %s",
			 head, f->dkms_version, f->kernel);
	}
}

void msl_absence_classify(const struct msl_absence_facts *f,
			  struct msl_absence *out)
{
	char line[400];

	memset(out, 0, sizeof(*out));
	if (!f->ko_path) {
		not_built(f, out);
		return;
	}
	/* Refused, and not loaded since (it says "hooked" when it loads). */
	if (f->kmsg && last_line_with(f->kmsg, REFUSING, line, sizeof(line)) &&
	    last_pos(f->kmsg, REFUSING) > last_pos(f->kmsg, HOOKED)) {
		out->why = MSL_ABSENT_REFUSED;
		snprintf(out->detail, sizeof(out->detail), "%s", line);
		snprintf(out->text, sizeof(out->text),
			 "%s refused to load on kernel %s: %s", MSL_MODULE_NAME,
			 f->kernel, strstr(line, "refusing to load: ") ?
			 strstr(line, "refusing to load: ") + 18 : line);
		return;
	}
	if ((lockdown_active(f->lockdown) || f->sig_enforced) &&
	    (signature_refused(f->kmsg, line, sizeof(line)) ||
	     f->ko_signed == 0)) {
		out->why = MSL_ABSENT_LOCKDOWN;
		snprintf(out->detail, sizeof(out->detail), "%s",
			 signature_refused(f->kmsg, line, sizeof(line)) ? line :
			 "the module file is not signed");
		snprintf(out->text, sizeof(out->text),
			 "%s cannot be loaded: %s enforces module signatures and the module's signing key is not enrolled (%s); enroll the DKMS key (mokutil --import /var/lib/dkms/mok.pub, then reboot)",
			 MSL_MODULE_NAME,
			 lockdown_active(f->lockdown) ? "Secure Boot lockdown" :
			 "module.sig_enforce", out->detail);
		return;
	}
	out->why = MSL_ABSENT_NOT_LOADED;
	snprintf(out->text, sizeof(out->text),
		 "module not loaded: run modprobe %s (%s is there for kernel %s)",
		 MSL_MODULE_NAME, f->ko_path, f->kernel);
}

/* -1 unknown (compressed), 0 unsigned, 1 signed. */
static int ko_signed(const char *path)
{
	char tail[sizeof(SIG_MAGIC) - 1];
	size_t n = strlen(path);
	int fd, ret = -1;

	if (n < 3 || strcmp(path + n - 3, ".ko"))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (lseek(fd, -(off_t)sizeof(tail), SEEK_END) >= 0 &&
	    read(fd, tail, sizeof(tail)) == (ssize_t)sizeof(tail))
		ret = !memcmp(tail, SIG_MAGIC, sizeof(tail));
	close(fd);
	return ret;
}

/* A memcg_softlimit.ko* below @dir (depth-first, a few levels). */
static bool find_ko(const char *dir, int depth, char *out, size_t len)
{
	struct dirent *de;
	bool found = false;
	char sub[4096];
	DIR *d;

	if (depth > 4)
		return false;
	d = opendir(dir);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name) >=
		    (int)sizeof(sub))
			continue;
		if (!strncmp(de->d_name, MSL_MODULE_NAME ".ko",
			     strlen(MSL_MODULE_NAME ".ko"))) {
			snprintf(out, len, "%s", sub);
			found = true;
		} else if (de->d_type == DT_DIR &&
			   strcmp(de->d_name, "kernel")) {
			/* (kernel/: the kernel's own modules, never ours) */
			found = find_ko(sub, depth + 1, out, len);
		}
	}
	closedir(d);
	return found;
}

static char *kernel_log(void)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0), n;
	char *buf;

	if (size <= 0)
		return NULL;
	buf = malloc((size_t)size + 1);
	if (!buf)
		return NULL;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

#define DKMS_TREE	"/var/lib/dkms/memcg-softlimit"

/* The newest version in DKMS's tree (with @kver built, if given). */
static bool dkms_newest(const char *kver, char *buf, size_t len)
{
	char path[512];
	struct dirent *de;
	bool found = false;
	DIR *d = opendir(DKMS_TREE);

	if (!d)
		return false;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;	/* kernel-* links, . and .. */
		snprintf(path, sizeof(path), DKMS_TREE "/%s/%s", de->d_name,
			 kver ? kver : "source");
		if (access(path, F_OK))
			continue;
		if (!found || strverscmp(de->d_name, buf) > 0)
			snprintf(buf, len, "%s", de->d_name);
		found = true;
	}
	closedir(d);
	return found;
}

const char *msl_newer_installed(const char *loaded, char *buf, size_t len)
{
	struct utsname u;

	uname(&u);
	if (!loaded || !*loaded || !dkms_newest(u.release, buf, len))
		return NULL;
	return strverscmp(buf, loaded) > 0 ? buf : NULL;
}

/* What DKMS knows of the running kernel, for a module that is missing. */
static void dkms_facts(struct msl_absence_facts *f, char *ver, size_t vlen,
		       char *re, size_t rlen, char *mlog, size_t mlen)
{
	char path[512], *conf, *p, *log;

	if (!dkms_newest(NULL, ver, vlen))
		return;
	f->dkms_version = ver;
	snprintf(path, sizeof(path), "/usr/src/memcg-softlimit-%s/dkms.conf", ver);
	conf = msl_read_all(path, NULL);
	p = conf ? strstr(conf, "\nBUILD_EXCLUSIVE_KERNEL=\"") : NULL;
	if (p) {
		p += strlen("\nBUILD_EXCLUSIVE_KERNEL=\"");
		snprintf(re, rlen, "%.*s", (int)strcspn(p, "\"\n"), p);
		f->kernel_re = re;
	}
	free(conf);
	snprintf(path, sizeof(path), "/lib/modules/%s/build", f->kernel);
	f->headers = !access(path, F_OK);
	snprintf(path, sizeof(path), DKMS_TREE "/%s/%s", ver, f->kernel);
	f->built = !access(path, F_OK);
	snprintf(mlog, mlen, DKMS_TREE "/%s/build/make.log", ver);
	log = msl_read_all(mlog, NULL);
	if (log) {
		f->make_log = mlog;
		/* dkms's log of a build for this kernel that stopped on an error */
		f->make_log_failed = strstr(log, f->kernel) &&
				     (strstr(log, "Error ") || strstr(log, "error:"));
	}
	free(log);
}

void msl_absence_probe(struct msl_absence *out)
{
	struct msl_absence_facts f = { .ko_signed = -1 };
	char dir[512], ko[4096], lockdown[128], enforce[8], dkmsver[64];
	char re[256], mlog[512];
	struct utsname u;
	char *log;

	uname(&u);
	f.kernel = u.release;
	snprintf(dir, sizeof(dir), "/lib/modules/%s", u.release);
	if (find_ko(dir, 0, ko, sizeof(ko))) {
		f.ko_path = ko;
		f.ko_signed = ko_signed(ko);
	}
	if (msl_read_file("/sys/kernel/security/lockdown", lockdown,
			  sizeof(lockdown)) >= 0)
		f.lockdown = lockdown;
	f.sig_enforced = msl_read_file("/sys/module/module/parameters/sig_enforce",
				       enforce, sizeof(enforce)) > 0 &&
			 enforce[0] == 'Y';
	log = kernel_log();
	f.kmsg = log;
	if (!f.ko_path)
		dkms_facts(&f, dkmsver, sizeof(dkmsver), re, sizeof(re), mlog,
			   sizeof(mlog));
	msl_absence_classify(&f, out);
	free(log);
}

const char *msl_absence_word(enum msl_absence_why why)
{
	switch (why) {
	case MSL_ABSENT_NOT_BUILT:
		return "not_built";
	case MSL_ABSENT_REFUSED:
		return "refused";
	case MSL_ABSENT_LOCKDOWN:
		return "lockdown";
	case MSL_ABSENT_NOT_LOADED:
		return "not_loaded";
	case MSL_ABSENT_UNSUPPORTED:
		return "unsupported_kernel";
	case MSL_ABSENT_NO_HEADERS:
		return "no_headers";
	case MSL_ABSENT_BUILD_FAILED:
		return "build_failed";
	default:
		return "loaded";
	}
}

const char *msl_module_absent_why(void)
{
	static struct msl_absence a;

	msl_absence_probe(&a);
	return a.text;
}
