/* SPDX-License-Identifier: BSD-3-Clause */
#include "sched_view.h"

#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse.h"

/* ROOT/PATH into buf, without its last newline: its length or a negative errno */
static int
read_text(const char *root, const char *path, char *buf, size_t len)
{
	char full[512];
	FILE *f;
	size_t n;
	int err;

	snprintf(full, sizeof(full), "%s%s", root, path);
	f = fopen(full, "re");
	if (f == NULL)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	err = ferror(f) ? -EIO : 0;
	fclose(f);
	if (err < 0)
		return err;
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return (int)n;
}

/* A kernel CPU list ("1-3,5", or empty) into set */
static int
cpu_list(const char *s, cpu_set_t *set)
{
	unsigned int cpus[CPU_SETSIZE];
	unsigned int n = 0;
	int ret;

	CPU_ZERO(set);
	if (*s == '\0')
		return 0;
	ret = lull_parse_uint_list(s, CPU_SETSIZE - 1, cpus, CPU_SETSIZE, &n);
	if (ret < 0)
		return ret;
	for (unsigned int i = 0; i < n; i++)
		CPU_SET(cpus[i], set);
	return 0;
}

/* The value of "KEY:\tVALUE" in a /proc status text, or NULL; the value ends at
 * the line's end, copied into val */
static const char *
status_field(const char *text, const char *key, char *val, size_t len)
{
	size_t klen = strlen(key);

	for (const char *line = text; line != NULL && *line != '\0';) {
		const char *end = strchr(line, '\n');
		size_t llen = end != NULL ? (size_t)(end - line) : strlen(line);

		if (llen > klen && strncmp(line, key, klen) == 0 && line[klen] == ':') {
			const char *v = line + klen + 1;

			while (*v == '\t' || *v == ' ')
				v++;
			snprintf(val, len, "%.*s", (int)(llen - (size_t)(v - line)), v);
			return val;
		}
		line = end != NULL ? end + 1 : NULL;
	}
	return NULL;
}

/* Whether every CPU of allowed is in the kernel's isolated lists */
static enum lull_cpu_kept
kept_of(const char *root, const cpu_set_t *allowed)
{
	static const char *const lists[] = {
		"/sys/devices/system/cpu/isolated",    /* isolcpus= */
		"/sys/fs/cgroup/cpuset.cpus.isolated", /* isolated cpuset partitions */
	};
	char text[4096];
	cpu_set_t isolated, one;
	bool read_any = false;

	CPU_ZERO(&isolated);
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		if (read_text(root, lists[i], text, sizeof(text)) < 0 || cpu_list(text, &one) < 0)
			continue;
		read_any = true;
		CPU_OR(&isolated, &isolated, &one);
	}
	if (!read_any)
		return LULL_CPU_KEPT_UNKNOWN;
	CPU_AND(&one, allowed, &isolated);
	return CPU_EQUAL(&one, allowed) && CPU_COUNT(allowed) > 0 ? LULL_CPU_KEPT : LULL_CPU_SHARED;
}

/* Field 39 (processor) of a /proc stat line, past the command's ')' */
static int
last_cpu(const char *stat)
{
	const char *p = strrchr(stat, ')');

	if (p == NULL)
		return -1;
	for (int field = 2; field < 39; field++) {
		p = strchr(p + 1, ' ');
		if (p == NULL)
			return -1;
	}
	return atoi(p + 1);
}

int
lull_sched_view(const char *root, pid_t pid, pid_t tid, struct lull_sched_view *v)
{
	char path[128], text[4096], val[64], list[2048];
	uint64_t u;
	int ret;

	memset(v, 0, sizeof(*v));
	v->cpu = -1;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid, (int)tid);
	ret = read_text(root, path, text, sizeof(text));
	if (ret < 0)
		return ret == -ENOENT || ret == -ESRCH ? -ENOENT : ret;
	if (status_field(text, "Cpus_allowed_list", list, sizeof(list)) == NULL ||
		cpu_list(list, &v->allowed) < 0)
		return -EINVAL;
	/* the text is for people: a long list ends in "..." */
	if (snprintf(v->cpus, sizeof(v->cpus), "%s", list) >= (int)sizeof(v->cpus))
		memcpy(v->cpus + sizeof(v->cpus) - 4, "...", 4);
	if (status_field(text, "nonvoluntary_ctxt_switches", val, sizeof(val)) == NULL ||
		lull_parse_u64(val, 0, UINT64_MAX, &u) < 0)
		return -EINVAL;
	v->preemptions = u;
	v->kept = kept_of(root, &v->allowed);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)tid);
	if (read_text(root, path, text, sizeof(text)) >= 0)
		v->cpu = last_cpu(text);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", (int)pid, (int)tid);
	if (read_text(root, path, text, sizeof(text)) >= 0) {
		if (lull_schedstat_wait(text, &v->runq_wait_ns) < 0)
			return -EINVAL;
		v->have_wait = 1;
	}
	return 0;
}

int
lull_schedstat_wait(const char *text, uint64_t *wait_ns)
{
	const char *p = text;
	char *end;

	for (int field = 0; field < 2; field++) {
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		*wait_ns = strtoull(p, &end, 10);
		if (errno != 0)
			return -EINVAL;
		p = end;
	}
	return *p == ' ' || *p == '\n' || *p == '\0' ? 0 : -EINVAL;
}

const char *
lull_cpu_kept_name(enum lull_cpu_kept kept)
{
	switch (kept) {
	case LULL_CPU_KEPT:
		return "kept";
	case LULL_CPU_SHARED:
		return "shared";
	default:
		return "unknown";
	}
}

bool
lull_sched_shared_line(pid_t tid, char *buf, size_t len)
{
	struct lull_sched_view v;

	if (lull_sched_view("", getpid(), tid, &v) < 0 || v.kept != LULL_CPU_SHARED)
		return false;
	snprintf(buf, len,
		"thread %d may run on CPU %s, which the kernel does not keep for it (not in "
		"isolcpus= nor an isolated cpuset): other threads that move there while it "
		"sleeps preempt it when it polls again; pmd-sleep-show counts that "
		"(docs/tuning.md \"Isolating cores\")",
		(int)tid, v.cpus);
	return true;
}
