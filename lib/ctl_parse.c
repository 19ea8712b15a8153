// SPDX-License-Identifier: GPL-2.0
/*
 * Pure parsing of control commands and rules, shared by the module and
 * the tool so that both accept exactly the same sizes, paths and patterns.
 */
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <asm/page.h>
#include <memcg_softlimit/control.h>

#define MSL_U64_MAX	(~(u64)0)

/* K, M, G, T and Ki, Mi, Gi, Ti: powers of 1024 (as memory.max takes). */
static unsigned int unit_shift(const char *p, const char **end)
{
	static const char units[] = "kmgt";
	const char *u = *p ? strchr(units, *p | 0x20) : NULL;

	if (!u)
		return 0;
	*end = p + 1 + (p[1] == 'i');
	return 10 * (unsigned int)(u - units + 1);
}

int msl_parse_size(const char *s, u64 *bytes, bool *is_max)
{
	unsigned int shift = 0;
	u64 value = 0;
	const char *p = s;

	/* infinity: systemd's word for max (MemoryLow=infinity) */
	if (!strcmp(s, "max") || !strcmp(s, "infinity")) {
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
	if (*p) {
		shift = unit_shift(p, &p);
		if (!shift || *p)
			return -EINVAL;
	}
	if (value > (MSL_U64_MAX >> shift))
		return -ERANGE;
	/*
	 * Limits are kept in pages: 1..PAGE_SIZE-1 bytes would be 0 pages,
	 * "always over", the opposite of what a small limit means.  0 says
	 * so itself.
	 */
	if (value && (value << shift) < PAGE_SIZE)
		return -EDOM;
	*is_max = false;
	*bytes = value << shift;
	return 0;
}

const char *msl_size_why(int err)
{
	if (err == -ERANGE)
		return "size out of range";
	if (err == -EDOM)
		return "size below one page: it would be 0 pages, always over (write 0 if that is meant)";
	return "size must be bytes with an optional K, M, G, T or Ki, Mi, Gi, Ti, or max (infinity)";
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
			*why = msl_size_why(ret);
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

/* Ends of the path component starting at @s (after its '/'). */
static const char *component_end(const char *s)
{
	while (*s && *s != '/')
		s++;
	return s;
}

/* '*' any run and '?' any one character, within one component. */
static bool match_component(const char *p, const char *p_end,
			    const char *s, const char *s_end)
{
	const char *star = NULL, *star_s = NULL;

	while (s < s_end) {
		if (p < p_end && (*p == '?' || *p == *s)) {
			p++;
			s++;
		} else if (p < p_end && *p == '*') {
			star = ++p;
			star_s = s;
		} else if (star) {
			p = star;
			s = ++star_s;
		} else {
			return false;
		}
	}
	while (p < p_end && *p == '*')
		p++;
	return p == p_end;
}

static bool is_globstar(const char *p)
{
	return p[0] == '/' && p[1] == '*' && p[2] == '*' &&
	       (p[3] == '/' || !p[3]);
}

/*
 * Component by component, with '**' as the one wildcard of a classic
 * glob over components: on a mismatch, the last '**' seen takes one more
 * component and matching resumes after it.  No recursion, no allocation:
 * the module runs this in the cgroup_mkdir tracepoint.
 */
bool msl_path_match(const char *pattern, const char *path)
{
	const char *p = pattern, *s = path;
	const char *resume_p = NULL, *resume_s = NULL;
	const char *p_end, *s_end;

	for (;;) {
		if (is_globstar(p)) {
			p += 3;
			resume_p = p;
			resume_s = s;
			continue;
		}
		if (!*p && !*s)
			return true;
		if (*p == '/' && *s == '/') {
			p_end = component_end(p + 1);
			s_end = component_end(s + 1);
			if (match_component(p + 1, p_end, s + 1, s_end)) {
				p = p_end;
				s = s_end;
				continue;
			}
		}
		if (!resume_p || !*resume_s)
			return false;
		resume_s = component_end(resume_s + 1);
		p = resume_p;
		s = resume_s;
	}
}

int msl_pattern_check(const char *pattern, const char **why)
{
	const char *p;

	if (!valid_path(pattern, why))
		return -EINVAL;
	if (!pattern[1]) {
		*why = "the root cgroup cannot have a soft limit";
		return -EINVAL;
	}
	for (p = pattern; *p; p++) {
		if (p[0] == '/' && (p[1] == '/' || !p[1])) {
			*why = "empty path component";
			return -EINVAL;
		}
		if (p[0] == '*' && p[1] == '*' &&
		    (p[-1] != '/' || (p[2] && p[2] != '/'))) {
			*why = "'**' must be a whole path component";
			return -EINVAL;
		}
	}
	*why = NULL;
	return 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

int msl_rule_parse(char *line, struct msl_rule *rule, const char **why)
{
	char *end = line + strlen(line), *word;
	bool is_max;
	int ret;

	while (is_blank(*line))
		line++;
	while (end > line && (is_blank(end[-1]) || end[-1] == '\r'))
		end--;
	*end = '\0';
	if (!*line || *line == '#')
		return 0;
	/* The size is the last word: a cgroup name may hold spaces. */
	for (word = end; word > line && !is_blank(word[-1]); word--)
		;
	if (word == line) {
		*why = "usage: <pattern> <size|max|unset>";
		return -EINVAL;
	}
	for (end = word; end > line && is_blank(end[-1]); end--)
		;
	*end = '\0';
	if (msl_pattern_check(line, why))
		return -EINVAL;
	rule->pattern = line;
	rule->bytes = 0;
	if (!strcmp(word, "unset")) {
		rule->action = MSL_RULE_UNSET;
		return 1;
	}
	ret = msl_parse_size(word, &rule->bytes, &is_max);
	if (ret) {
		*why = ret == -EINVAL ? "size must be bytes with an optional K, M, G, T or Ki, Mi, Gi, Ti, max (infinity) or unset" :
			msl_size_why(ret);
		return -EINVAL;
	}
	rule->action = is_max ? MSL_RULE_MAX : MSL_RULE_LIMIT;
	if (is_max)
		rule->bytes = 0;
	*why = NULL;
	return 1;
}
