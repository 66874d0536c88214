// SPDX-License-Identifier: GPL-2.0
/*
 * proto_fuzz.c - the broker's message decoder (loader/lib/broker_proto.h)
 * on the host, under ASan and UBSan: a table of malformed messages each
 * refused with its reason, valid ones decoded exactly, then N random and
 * mutated messages (seeded) that must be refused or decode to lines of
 * printable text within the limits, never read out of bounds.
 *
 *	proto_fuzz [SEED [N]]		exit 0 pass, 1 fail
 */
#include <stdio.h>
#include <stdlib.h>
#include "broker_proto.h"

static int fails;

static void expect(const char *name, const unsigned char *buf, size_t n,
		   const char *want_why)
{
	static struct iob_msg m;
	const char *why = NULL;
	int ret = iob_decode(buf, n, &m, &why);

	if (want_why ? ret == 0 || strcmp(why, want_why) : ret != 0) {
		printf("FAIL %s: got %s, want %s\n", name, ret ? why : "accepted",
		       want_why ? want_why : "accepted");
		fails++;
	}
}

static size_t msg(unsigned char *buf, const char *payload)
{
	size_t len = strlen(payload);

	iob_header(buf, IOB_ATTACH, len);
	memcpy(buf + IOB_HDR_SIZE, payload, len);
	return IOB_HDR_SIZE + len;
}

static void check_valid(const unsigned char *buf, size_t n)
{
	static struct iob_msg m;
	const char *why;
	int i;

	if (iob_decode(buf, n, &m, &why))
		return;
	if (m.nlines > IOB_MAX_LINES || m.type < 1 || m.type > 3) {
		printf("FAIL: accepted %d lines, type %u\n", m.nlines, m.type);
		fails++;
	}
	for (i = 0; i < m.nlines; i++) {
		const char *p;

		for (p = m.line[i].key; *p; p++)
			if (*p < 0x20 || *p > 0x7e || *p == ' ')
				fails++, printf("FAIL: a key byte 0x%02x\n", *p);
		for (p = m.line[i].val; *p; p++)
			if (*p < 0x20 || *p > 0x7e)
				fails++, printf("FAIL: a value byte 0x%02x\n", *p);
	}
}

int main(int argc, char **argv)
{
	unsigned int seed = argc > 1 ? atoi(argv[1]) : 1;
	long n = argc > 2 ? atol(argv[2]) : 200000, i;
	static unsigned char buf[IOB_MAX_MSG + 64];
	static struct iob_msg m;
	const char *why;
	size_t len;

	len = msg(buf, "program nop-chain\nparam nr=10\n");
	expect("valid", buf, len, NULL);
	if (!iob_decode(buf, len, &m, &why) &&
	    (m.nlines != 2 || strcmp(iob_get(&m, "program"), "nop-chain") ||
	     strcmp(iob_get(&m, "param"), "nr=10")))
		fails++, printf("FAIL: valid message decoded wrong\n");
	expect("empty payload", buf, msg(buf, ""), NULL);
	expect("truncated header", buf, 10, "truncated header");
	len = msg(buf, "program nop-chain\n");
	expect("truncated payload", buf, len - 3, "truncated payload");
	expect("trailing bytes", buf, len + 2, "bytes after the payload");
	buf[0] ^= 1;
	expect("bad magic", buf, len, "bad magic (not an iouring-bpfd message)");
	len = msg(buf, "program nop-chain\n");
	buf[4] = 2;
	expect("version 2", buf, len, "unsupported protocol version");
	len = msg(buf, "program nop-chain\n");
	buf[6] = 9;
	expect("type 9", buf, len, "unknown message type");
	len = msg(buf, "program nop-chain\n");
	buf[12] = 1;
	expect("reserved", buf, len, "reserved header bytes not zero");
	len = msg(buf, "program nop-chain\n");
	iob_put32(buf + 8, IOB_MAX_PAYLOAD + 1);
	expect("too long", buf, len, "payload too long");
	expect("no newline", buf, msg(buf, "program nop-chain"),
	       "payload does not end with a newline");
	expect("empty line", buf, msg(buf, "program x\n\n"), "empty line");
	expect("no value", buf, msg(buf, "program\n"), "a line without KEY VALUE");
	expect("leading space", buf, msg(buf, " program x\n"),
	       "a line without KEY VALUE");
	expect("escape", buf, msg(buf, "program nop\x1b[31m\n"),
	       "control or non-ASCII byte in the payload");
	expect("utf-8", buf, msg(buf, "program n\xc3\xa9\n"),
	       "control or non-ASCII byte in the payload");
	len = msg(buf, "program a\n");
	buf[IOB_HDR_SIZE + 2] = 0;
	expect("NUL", buf, len, "control or non-ASCII byte in the payload");
	{
		char many[IOB_MAX_PAYLOAD];
		size_t k = 0;

		for (i = 0; i < IOB_MAX_LINES + 1; i++)
			k += sprintf(many + k, "param a=%ld\n", i);
		expect("too many lines", buf, msg(buf, many), "too many lines");
		memset(many, 'x', 1100);
		memcpy(many, "program ", 8);
		many[1100] = '\n';
		many[1101] = 0;
		expect("long line", buf, msg(buf, many), "line too long");
	}
	/* encoding: a control byte in a value becomes '?' */
	len = IOB_HDR_SIZE;
	iob_header(buf, IOB_REPLY, 0);
	iob_add(buf, &len, "message", "a\nb\x01");
	if (iob_decode(buf, len, &m, &why) || strcmp(iob_get(&m, "message"), "a?b?"))
		fails++, printf("FAIL: iob_add did not keep the value one line\n");

	srand(seed);
	for (i = 0; i < n; i++) {
		size_t j;

		len = IOB_HDR_SIZE;
		iob_header(buf, 1 + rand() % 3, 0);
		iob_add(buf, &len, "program", "nop-chain");
		iob_add(buf, &len, "param", "nr=10");
		switch (rand() % 3) {
		case 0:
			len = rand() % sizeof(buf);
			for (j = 0; j < len; j++)
				buf[j] = rand();
			if (rand() % 2)
				iob_header(buf, 1 + rand() % 3,
					   len > IOB_HDR_SIZE ? len - IOB_HDR_SIZE : 0);
			break;
		case 1:
			for (j = 0; j < 1 + (size_t)rand() % 6; j++)
				buf[rand() % len] = rand();
			break;
		default:
			len = rand() % (len + 1);
		}
		check_valid(buf, len);
	}
	printf("%ld random and mutated messages decoded; %d failures\n", n,
	       fails);
	return fails ? 1 : 0;
}
