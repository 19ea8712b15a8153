// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/memcg_softlimit: limits and rules, the root-only interfaces to
 * cgroup v2 soft limits, status (formats in include/memcg_softlimit/
 * control.h), and snapshot, which traces every memcg's counters
 * (include/memcg_softlimit/events.h).
 */
#include <linux/capability.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <memcg_softlimit/control.h>
#include "procfs.h"
#include "liveness.h"
#include "softlimits.h"
#include "memcg_snapshot.h"
#include "memcg_state.h"
#include "params.h"
#include "probes.h"
#include "rules.h"

static struct proc_dir_entry *proc_dir;

static int limits_show(struct seq_file *m, void *v)
{
	msl_limits_show(m);
	return 0;
}

static int limits_open(struct inode *inode, struct file *file)
{
	return single_open(file, limits_show, NULL);
}

static ssize_t limits_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	struct msl_ctl_cmd cmd;
	const char *why;
	char *buf;
	int ret;

	/* The mode is 0600, but an opened fd can be passed on. */
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (len == 0 || len > MSL_CTL_MAX_CMD)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	ret = msl_ctl_parse(buf, len, &cmd, &why);
	if (!ret)
		ret = msl_limits_apply(&cmd);
	kfree(buf);
	return ret ? ret : len;
}

static const struct proc_ops limits_ops = {
	.proc_open = limits_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
	.proc_write = limits_write,
};

static int rules_show(struct seq_file *m, void *v)
{
	msl_rules_show(m);
	return 0;
}

static int rules_open(struct inode *inode, struct file *file)
{
	return single_open(file, rules_show, NULL);
}

static ssize_t rules_write(struct file *file, const char __user *ubuf,
			   size_t len, loff_t *ppos)
{
	char *buf;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (len > MSL_MAX_RULES_TEXT)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = msl_rules_write(buf, len);
	return ret ? ret : len;
}

static const struct proc_ops rules_ops = {
	.proc_open = rules_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
	.proc_write = rules_write,
};

static int status_show(struct seq_file *m, void *v)
{
	struct msl_params params;

	msl_current_params(&params);
	seq_printf(m, "gate: %s\n", msl_gate_name(msl_gate_of(&params)));
	seq_printf(m, "gating: %s\n", msl_gating_state());
	seq_puts(m, "hooks: ");
	msl_probes_show(m);
	seq_printf(m, "rules: %u\n", msl_rules_count());
	msl_rules_show_counts(m);
	return 0;
}

static int status_open(struct inode *inode, struct file *file)
{
	return single_open(file, status_show, NULL);
}

static const struct proc_ops status_ops = {
	.proc_open = status_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
};

static ssize_t snapshot_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	msl_state_snapshot(msl_probes_missed());
	return len;
}

static const struct proc_ops snapshot_ops = {
	.proc_write = snapshot_write,
	.proc_lseek = noop_llseek,
};

int msl_procfs_init(void)
{
	proc_dir = proc_mkdir(MSL_PROC_DIR, NULL);
	if (!proc_dir)
		return -ENOMEM;
	if (!proc_create("limits", 0600, proc_dir, &limits_ops) ||
	    !proc_create("rules", 0600, proc_dir, &rules_ops) ||
	    !proc_create("status", 0444, proc_dir, &status_ops) ||
	    !proc_create("snapshot", 0200, proc_dir, &snapshot_ops)) {
		remove_proc_subtree(MSL_PROC_DIR, NULL);
		return -ENOMEM;
	}
	return 0;
}

void msl_procfs_exit(void)
{
	remove_proc_subtree(MSL_PROC_DIR, NULL);
}
