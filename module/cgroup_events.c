// SPDX-License-Identifier: GPL-2.0
/*
 * The cgroup_mkdir and cgroup_rmdir tracepoints, which every hierarchy
 * fires: kernfs ids are unique per hierarchy root only, so an event of
 * another hierarchy (cgroup v1's name=systemd, pids, cpu, ...) may carry
 * the id of a live memcg and must not touch its state.
 */
#include <linux/cgroup.h>
#include <linux/memcontrol.h>
#include <linux/tracepoint.h>

#include "cgroup_events.h"
#include "memcg_state.h"
#include "msl_trace.h"
#include "rules.h"

static struct tracepoint *mkdir_tp, *rmdir_tp;

static bool in_memory_hierarchy(struct cgroup *cgrp)
{
	return cgrp->root == memory_cgrp_subsys.root;
}

static void probe_cgroup_rmdir(void *data, struct cgroup *cgrp,
			       const char *path)
{
	if (in_memory_hierarchy(cgrp))
		msl_state_cgroup_removed(cgroup_id(cgrp));
}

/* Called with cgroup_mutex held and preemption off: no sleeping here. */
static void probe_cgroup_mkdir(void *data, struct cgroup *cgrp,
			       const char *path)
{
	if (!in_memory_hierarchy(cgrp))
		return;
	msl_state_cgroup_added();
	msl_rules_cgroup_created(cgrp, path);
	/* A recording names each cgroup made while it runs (seq 0). */
	trace_cgroup_path(0, cgroup_id(cgrp), path);
}

struct cgroup_tracepoints {
	struct tracepoint *mkdir, *rmdir;
};

static void find_cgroup_tps(struct tracepoint *tp, void *priv)
{
	struct cgroup_tracepoints *found = priv;

	if (!strcmp(tp->name, "cgroup_rmdir"))
		found->rmdir = tp;
	else if (!strcmp(tp->name, "cgroup_mkdir"))
		found->mkdir = tp;
}

static int attach_probe(struct tracepoint *tp, const char *name, void *probe)
{
	int ret;

	if (!tp) {
		pr_err("refusing to load: no %s tracepoint\n", name);
		return -ENOENT;
	}
	ret = tracepoint_probe_register(tp, probe, NULL);
	if (ret)
		pr_err("refusing to load: cannot attach to %s (%d)\n", name, ret);
	return ret;
}

int msl_cgroup_events_init(void)
{
	struct cgroup_tracepoints found = {};
	int ret;

	for_each_kernel_tracepoint(find_cgroup_tps, &found);
	ret = attach_probe(found.rmdir, "cgroup_rmdir", probe_cgroup_rmdir);
	if (ret)
		return ret;
	rmdir_tp = found.rmdir;
	ret = attach_probe(found.mkdir, "cgroup_mkdir", probe_cgroup_mkdir);
	if (ret) {
		msl_cgroup_events_exit();
		return ret;
	}
	mkdir_tp = found.mkdir;
	return 0;
}

void msl_cgroup_events_exit(void)
{
	if (mkdir_tp)
		tracepoint_probe_unregister(mkdir_tp, probe_cgroup_mkdir, NULL);
	if (rmdir_tp)
		tracepoint_probe_unregister(rmdir_tp, probe_cgroup_rmdir, NULL);
	if (mkdir_tp || rmdir_tp)
		tracepoint_synchronize_unregister();
	mkdir_tp = NULL;
	rmdir_tp = NULL;
}
