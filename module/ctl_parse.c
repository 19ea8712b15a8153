// SPDX-License-Identifier: GPL-2.0
/*
 * Pure parsing of control commands, shared by the module and the tool so
 * that both accept exactly the same sizes and paths.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <limits.h>
#include <string.h>
#endif
#include <memcg_softlimit/control.h>

#define MSL_U64_MAX	(~(u64)0)

int msl_parse_size(const char *s, u64 *bytes, bool *is_max)
{
	unsigned int shift = 0;
	u64 value = 0;
	const char *p = s;

	if (!strcmp(s, "max")) {
		*is_max = true;
		*bytes = MSL_U64_MAX;
		return 0;
	}
	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned int digit = *p - '0';

		if (value > (MSL_U64_MAX - digit) / 10)
			return -ERANGE;
		value = value * 10 + digit;
	}
	switch (*p) {
	case '\0':
		break;
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	case 't': case 'T':
		shift = 40;
		break;
	default:
		return -EINVAL;
	}
	if (shift && *++p != '\0')
		return -EINVAL;
	if (value > (MSL_U64_MAX >> shift))
		return -ERANGE;
	*is_max = false;
	*bytes = value << shift;
	return 0;
}

static bool valid_path(const char *path, const char **why)
{
	const char *p;

	if (path[0] != '/') {
		*why = "path must start with '/'";
		return false;
	}
	if (strlen(path) >= PATH_MAX) {
		*why = "path too long";
		return false;
	}
	for (p = path; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			*why = "control character in path";
			return false;
		}
		/* kernfs would resolve these, but they name no cgroup. */
		if (p[0] == '/' && p[1] == '.' &&
		    (p[2] == '/' || p[2] == '\0' ||
		     (p[2] == '.' && (p[3] == '/' || p[3] == '\0')))) {
			*why = "'.' and '..' are not allowed in paths";
			return false;
		}
	}
	return true;
}

int msl_ctl_parse(char *buf, size_t len, struct msl_ctl_cmd *cmd,
		  const char **why)
{
	char *arg, *size;
	int ret;

	*why = "malformed command";
	if (len == 0 || len > MSL_CTL_MAX_CMD || memchr(buf, '\0', len))
		return -EINVAL;
	if (buf[len - 1] == '\n')
		len--;
	buf[len] = '\0';
	if (memchr(buf, '\n', len)) {
		*why = "one command per write";
		return -EINVAL;
	}

	if (!strncmp(buf, "set ", 4)) {
		cmd->op = MSL_CTL_SET;
		arg = buf + 4;
		size = strrchr(arg, ' ');
		if (!size || size == arg) {
			*why = "usage: set <path> <size>";
			return -EINVAL;
		}
		*size++ = '\0';
		ret = msl_parse_size(size, &cmd->bytes, &cmd->is_max);
		if (ret) {
			*why = ret == -ERANGE ? "size out of range" :
				"size must be bytes with optional K/M/G/T, or max";
			return -EINVAL;
		}
	} else if (!strncmp(buf, "unset ", 6)) {
		cmd->op = MSL_CTL_UNSET;
		arg = buf + 6;
		cmd->is_max = false;
		cmd->bytes = 0;
	} else {
		*why = "unknown command: use set or unset";
		return -EINVAL;
	}

	if (!valid_path(arg, why))
		return -EINVAL;
	cmd->path = arg;
	*why = NULL;
	return 0;
}

/* --- rule patterns (MSL_CTL_RULES) ------------------------------------ */

struct component {
	const char *start, *end;	/* empty when start == end */
	const char *next;		/* where the next one starts */
};

/* The path component at @s, leading slashes skipped. */
static struct component component_at(const char *s)
{
	struct component c;

	while (*s == '/')
		s++;
	c.start = s;
	while (*s && *s != '/')
		s++;
	c.end = s;
	c.next = s;
	return c;
}

static bool is_double_star(const struct component *c)
{
	return c->end - c->start == 2 && c->start[0] == '*' &&
	       c->start[1] == '*';
}

/*
 * One pattern component against one path component: '*' any run of
 * characters, '?' one.  Iterative, with one backtracking point: no
 * recursion on the kernel stack, linear in practice.
 */
static bool component_match(const struct component *pc,
			    const struct component *sc)
{
	const char *p = pc->start, *s = sc->start;
	const char *star_p = NULL, *star_s = NULL;

	while (s < sc->end) {
		if (p < pc->end && *p == '*') {
			star_p = ++p;
			star_s = s;
		} else if (p < pc->end && (*p == '?' || *p == *s)) {
			p++;
			s++;
		} else if (star_p) {
			p = star_p;
			s = ++star_s;
		} else {
			return false;
		}
	}
	while (p < pc->end && *p == '*')
		p++;
	return p == pc->end;
}

/*
 * The same algorithm one level up, components for characters: '**' takes
 * any number of components, none included, backtracking one component at
 * a time.
 */
bool msl_path_match(const char *pattern, const char *path)
{
	const char *p = pattern, *s = path, *star_p = NULL, *star_s = NULL;
	struct component pc, sc;

	for (;;) {
		sc = component_at(s);
		if (sc.start == sc.end)
			break;
		pc = component_at(p);
		if (pc.start != pc.end && is_double_star(&pc)) {
			star_p = p = pc.next;
			star_s = s;
		} else if (pc.start != pc.end && component_match(&pc, &sc)) {
			p = pc.next;
			s = sc.next;
		} else if (star_p) {
			p = star_p;
			s = star_s = component_at(star_s).next;
		} else {
			return false;
		}
	}
	for (pc = component_at(p); pc.start != pc.end && is_double_star(&pc);
	     pc = component_at(pc.next))
		;
	return pc.start == pc.end;
}

int msl_pattern_check(const char *pattern, const char **why)
{
	const char *p;
	struct component c;

	if (pattern[0] != '/') {
		*why = "a pattern starts with '/'";
		return -EINVAL;
	}
	if (strlen(pattern) >= PATH_MAX) {
		*why = "pattern too long";
		return -EINVAL;
	}
	if (!pattern[1]) {
		*why = "'/' is the root cgroup, which has no soft limit";
		return -EINVAL;
	}
	for (p = pattern; *p; p = c.end) {
		if (p[0] == '/' && (p[1] == '/' || p[1] == '\0')) {
			*why = "empty path component ('//' or a trailing '/')";
			return -EINVAL;
		}
		c = component_at(p);
		if ((c.end - c.start == 1 && c.start[0] == '.') ||
		    (c.end - c.start == 2 && c.start[0] == '.' &&
		     c.start[1] == '.')) {
			*why = "'.' and '..' are not allowed in patterns";
			return -EINVAL;
		}
		for (p = c.start; p < c.end; p++) {
			if ((unsigned char)*p < 0x20 || *p == 0x7f) {
				*why = "control character in pattern";
				return -EINVAL;
			}
			if (p[0] == '*' && p + 1 < c.end && p[1] == '*' &&
			    !is_double_star(&c)) {
				*why = "'**' must be a whole path component (/a/**/b)";
				return -EINVAL;
			}
		}
	}
	*why = NULL;
	return 0;
}
