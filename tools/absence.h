/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MSL_TOOL_ABSENCE_H
#define MSL_TOOL_ABSENCE_H

#include <stdbool.h>
#include <stddef.h>

/* absence.c: why the module is not loaded */
enum msl_absence_why {
	MSL_PRESENT,
	MSL_ABSENT_NOT_BUILT,		/* no module for the running kernel */
	MSL_ABSENT_REFUSED,		/* refused at load (dmesg says why) */
	MSL_ABSENT_LOCKDOWN,		/* signature refused: key not enrolled */
	MSL_ABSENT_NOT_LOADED,		/* there, not loaded */
	/* Not built, and why: */
	MSL_ABSENT_UNSUPPORTED,		/* outside dkms.conf's kernels */
	MSL_ABSENT_NO_HEADERS,		/* no linux-headers-<kver> */
	MSL_ABSENT_BUILD_FAILED,	/* dkms's build failed (make.log) */
};
struct msl_absence_facts {
	const char *kernel;		/* uname -r */
	const char *ko_path;		/* our module for it, or NULL */
	int ko_signed;			/* 1, 0, -1 unknown */
	const char *lockdown;		/* /sys/kernel/security/lockdown */
	bool sig_enforced;		/* module.sig_enforce=1 */
	const char *kmsg;		/* the kernel log, or NULL */
	/* DKMS, when the module file is missing: */
	const char *dkms_version;	/* the newest registered, or NULL */
	const char *kernel_re;		/* dkms.conf's BUILD_EXCLUSIVE_KERNEL */
	bool headers;			/* /lib/modules/<kver>/build is there */
	bool built;			/* dkms built it for this kernel */
	const char *make_log;		/* dkms's last make.log, or NULL */
	bool make_log_failed;		/* ... a failed build for this kernel */
};
struct msl_absence {
	enum msl_absence_why why;
	char detail[400];		/* the kernel log's line, if any */
	char text[1024];		/* one sentence: what, and what to do */
};
void msl_absence_classify(const struct msl_absence_facts *f,
			  struct msl_absence *out);
void msl_absence_probe(struct msl_absence *out);
const char *msl_absence_word(enum msl_absence_why why);
/* "^(6\.1|6\.12|7\.3)\." as "6.1, 6.12, 7.3" (else the pattern itself). */
const char *msl_absence_kernels(const char *re, char *buf, size_t len);
/*
 * The version DKMS installed for the running kernel when it is newer
 * than the loaded one (@loaded), into @buf; NULL when none is newer.
 */
const char *msl_newer_installed(const char *loaded, char *buf, size_t len);
/* The sentence for this machine, for errors that need the module. */
const char *msl_module_absent_why(void);

#endif /* MSL_TOOL_ABSENCE_H */
