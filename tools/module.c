// SPDX-License-Identifier: GPL-2.0
/* The loaded module: version and the parameters the policy runs with. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <memcg_softlimit/control.h>
#include <memcg_softlimit/policy.h>

#include "module.h"
#include "absence.h"
#include "cgroup.h"
#include "msl.h"

bool msl_module_loaded(void)
{
	return access(MSL_SYS_MODULE, F_OK) == 0;
}

void msl_params_default(struct msl_params *p)
{
	/* V8, and the module's defaults (module/params.c). */
	p->enabled = true;
	p->priority_threshold = MSL_THRESHOLD_AUTO;
	p->unset = MSL_UNSET_INHERIT;
	p->policy = MSL_POLICY_V8;
}

int msl_bool_word(const char *s, bool *out)
{
	switch (s[0]) {
	case 'Y': case 'y': case '1':
		*out = true;
		return 0;
	case 'N': case 'n': case '0':
		*out = false;
		return 0;
	}
	return -EINVAL;
}

const char *msl_threshold_fmt(int threshold, char *buf, size_t len)
{
	if (threshold == MSL_THRESHOLD_AUTO)
		snprintf(buf, len, "auto");
	else
		snprintf(buf, len, "%d", threshold);
	return buf;
}

const char *msl_params_fmt(const struct msl_params *p, char *buf, size_t len)
{
	char t[16];

	snprintf(buf, len, "enabled=%s priority_threshold=%s unset=%s",
		 p->enabled ? "Y" : "N",
		 msl_threshold_fmt(p->priority_threshold, t, sizeof(t)),
		 msl_unset_name(p->unset));
	return buf;
}

static int read_param(const char *name, char *buf, size_t len)
{
	char path[256];
	ssize_t r;

	snprintf(path, sizeof(path), MSL_PARAMS_DIR "/%s", name);
	r = msl_read_file(path, buf, len);
	if (r < 0)
		return r;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

void msl_module_read(struct msl_module *m)
{
	char buf[64];
	int threshold, v, ok = 0;
	bool b;

	memset(m, 0, sizeof(*m));
	msl_params_default(&m->params);
	m->loaded = msl_module_loaded();
	if (!m->loaded)
		return;
	if (msl_read_file(MSL_SYS_MODULE "/version", m->version,
			  sizeof(m->version)) >= 0)
		m->version[strcspn(m->version, "\n")] = '\0';
	if (!read_param("enabled", buf, sizeof(buf)) && !msl_bool_word(buf, &b)) {
		m->params.enabled = b;
		ok++;
	}
	if (!read_param("priority_threshold", buf, sizeof(buf)) &&
	    !msl_threshold_parse(buf, &threshold)) {
		m->params.priority_threshold = threshold;
		ok++;
	}
	if (!read_param("unset", buf, sizeof(buf))) {
		v = msl_unset_parse(buf);
		if (v >= 0) {
			m->params.unset = v;
			ok++;
		}
	} else if (!read_param("unset_eligible", buf, sizeof(buf)) &&
		   !msl_bool_word(buf, &b)) {
		/* A module from before the unset parameter. */
		m->params.unset = b ? MSL_UNSET_ZERO : MSL_UNSET_MAX;
		ok++;
	}
	/* (absent before the policy parameter: V8) */
	if (!read_param("policy", buf, sizeof(buf))) {
		v = msl_policy_parse(buf);
		if (v >= 0)
			m->params.policy = v;
	}
	if (!read_param("keep_v1_reclaim", buf, sizeof(buf)) &&
	    !msl_bool_word(buf, &b))
		m->keep_v1_reclaim = b;
	m->params_read = ok == 3;
}

int msl_need_module(const struct msl_cgfs *fs)
{
	if (fs->version == 2 && !msl_module_loaded()) {
		msl_err("cgroup v2 soft limits are kept by the module: %s",
			msl_module_absent_why());
		return MSL_EXIT_ERR;
	}
	return 0;
}
