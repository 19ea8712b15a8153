// SPDX-License-Identifier: GPL-2.0
/*
 * The memory controller's hierarchy walked once: every cgroup below the
 * mount, depth-first with children by name (tree drawing), and cgroup ids
 * to paths (a cgroup's id is the inode number of its directory).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgmap.h"

static int add_node(struct msl_cgmap *m, uint64_t id, const char *path,
		    int depth)
{
	struct msl_cgnode *n;
	char *copy;

	if (!m->nodes || m->n == m->cap) {
		size_t cap = m->cap && m->nodes ? m->cap * 2 : 64;

		n = realloc(m->nodes, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		m->nodes = n;
		m->cap = cap;
	}
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	m->nodes[m->n] = (struct msl_cgnode){ .id = id, .path = copy,
					      .depth = depth, .last = true };
	m->n++;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int walk(struct msl_cgmap *m, int dfd, const char *path, int depth)
{
	char **names = NULL, **nn, *child, *name;
	size_t n = 0, cap = 0, i, prev = 0;
	struct dirent *de;
	struct stat st;
	DIR *d;
	int fd, ret = 0;

	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return 0;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' && (!de->d_name[1] ||
		    (de->d_name[1] == '.' && !de->d_name[2])))
			continue;
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			nn = realloc(names, cap * sizeof(*names));
			if (!nn) {
				ret = -ENOMEM;
				goto out;
			}
			names = nn;
		}
		name = strdup(de->d_name);
		if (!name) {
			ret = -ENOMEM;
			goto out;
		}
		names[n++] = name;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		fd = openat(dirfd(d), names[i], O_RDONLY | O_DIRECTORY |
			    O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0)
			continue;		/* removed meanwhile, or a file */
		if (fstat(fd, &st)) {
			close(fd);
			continue;
		}
		if (asprintf(&child, "%s%s%s", path, strcmp(path, "/") ? "/" : "",
			     names[i]) < 0) {
			close(fd);
			ret = -ENOMEM;
			goto out;
		}
		if (prev)
			m->nodes[prev].last = false;
		prev = m->n;
		ret = add_node(m, st.st_ino, child, depth + 1);
		if (!ret)
			ret = walk(m, fd, child, depth + 1);
		else
			close(fd);
		free(child);
		if (ret)
			goto out;
	}
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return ret;
}

static const struct msl_cgmap *sort_map;

static int cmp_by_id(const void *a, const void *b)
{
	uint64_t x = sort_map->nodes[*(const size_t *)a].id;
	uint64_t y = sort_map->nodes[*(const size_t *)b].id;

	return x < y ? -1 : x > y;
}

int msl_cgmap_build(struct msl_cgmap *m, const struct msl_cgfs *fs)
{
	struct stat st;
	size_t i;
	int fd, ret;

	msl_cgmap_free(m);
	fd = open(fs->mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	ret = add_node(m, st.st_ino, "/", 0);
	if (!ret)
		ret = walk(m, fd, "/", 0);
	else
		close(fd);
	/* Half a map is no map: the caller has nothing to free. */
	if (ret) {
		msl_cgmap_free(m);
		return ret;
	}
	m->by_id = malloc((m->n ? m->n : 1) * sizeof(*m->by_id));
	if (!m->by_id) {
		msl_cgmap_free(m);
		return -ENOMEM;
	}
	for (i = 0; i < m->n; i++)
		m->by_id[i] = i;
	sort_map = m;
	qsort(m->by_id, m->n, sizeof(*m->by_id), cmp_by_id);
	return 0;
}

const char *msl_cgmap_path(const struct msl_cgmap *m, uint64_t id)
{
	size_t lo = 0, hi = m->n;

	if (!m->by_id)
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t v = m->nodes[m->by_id[mid]].id;

		if (v == id)
			return m->nodes[m->by_id[mid]].path;
		if (v < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void msl_cgmap_free(struct msl_cgmap *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->nodes[i].path);
	free(m->nodes);
	free(m->by_id);
	memset(m, 0, sizeof(*m));
}
