// SPDX-License-Identifier: GPL-2.0
/*
 * log.c - one line per decision of iouring-bpfd, on stderr (the journal
 * under systemd): who (pid, uid), what (program, parameters), the outcome
 * (the CLI's exit status) and why. --log-json: one JSON object a line.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "daemon.h"

int log_json;

static void json_str(const char *key, const char *s)
{
	fprintf(stderr, ",\"%s\":\"", key);
	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(stderr, "\\%c", c);
		else if (c < 0x20 || c > 0x7e)
			fprintf(stderr, "\\u%04x", c);
		else
			fputc(c, stderr);
	}
	fputc('"', stderr);
}

/* text: printable ASCII only, so one line stays one line */
static void text_str(const char *s)
{
	for (; s && *s; s++)
		fputc((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e ?
		      '?' : *s, stderr);
}

void log_decision(const char *what, pid_t pid, uid_t uid, const char *prog,
		  const char *params, int status, const char *reason)
{
	if (log_json) {
		fprintf(stderr, "{\"time\":%lld", (long long)time(NULL));
		json_str("decision", what);
		fprintf(stderr, ",\"pid\":%d,\"uid\":%u", (int)pid, (unsigned)uid);
		json_str("program", prog ? prog : "");
		json_str("params", params ? params : "");
		fprintf(stderr, ",\"status\":%d", status);
		json_str("reason", reason ? reason : "");
		fputs("}\n", stderr);
	} else {
		fprintf(stderr, "iouring-bpfd: %s pid=%d uid=%u program=", what,
			(int)pid, (unsigned)uid);
		text_str(prog && *prog ? prog : "-");
		fputs(" params=\"", stderr);
		text_str(params ? params : "");
		fprintf(stderr, "\" status=%d: ", status);
		text_str(reason ? reason : "");
		fputc('\n', stderr);
	}
	fflush(stderr);
}
