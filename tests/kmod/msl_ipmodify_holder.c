// SPDX-License-Identifier: GPL-2.0
/*
 * Test only: holds an IPMODIFY ftrace_ops on one function, as a livepatch
 * of that function would, so that the tests can check that memcg_softlimit
 * refuses to load beside it (and that it cannot load beside memcg_softlimit).
 */
#include <linux/ftrace.h>
#include <linux/module.h>
#include <linux/string.h>

static char *func = "shrink_lruvec";
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "The function to hold (default shrink_lruvec)");

static void holder_handler(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
}

static struct ftrace_ops holder_ops = {
	.func = holder_handler,
	.flags = FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY,
};

static int __init holder_init(void)
{
	int ret;

	ret = ftrace_set_filter(&holder_ops, func, strlen(func), 0);
	if (ret)
		return ret;
	ret = register_ftrace_function(&holder_ops);
	if (ret)
		ftrace_free_filter(&holder_ops);
	return ret;
}

static void __exit holder_exit(void)
{
	unregister_ftrace_function(&holder_ops);
	ftrace_free_filter(&holder_ops);
}

module_init(holder_init);
module_exit(holder_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("memcg-softlimit test: an IPMODIFY ftrace user");
