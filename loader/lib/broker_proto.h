/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * broker_proto.h - the wire format between iouring-bpfd (loader/daemon/)
 * and its clients (lib/broker_client.c), shared by both and by the
 * protocol's fuzz test. docs/broker.md describes it for other clients.
 *
 * The socket is AF_UNIX SOCK_SEQPACKET: one datagram is one message, so
 * a short or long datagram is a malformed message, never a stream out of
 * step. A message is a 16-byte header and a text payload:
 *
 *	magic "IOBD" (0x44424f49 little-endian), version 1, type, length of
 *	the payload (0..IOB_MAX_PAYLOAD), 4 bytes zero
 *
 * The payload is lines "KEY VALUE\n" of printable ASCII (0x20..0x7e):
 * no NUL, no other control byte, at most IOB_MAX_LINES lines of at most
 * IOB_MAX_LINE bytes. Types: ATTACH (client: "program NAME", "ring
 * FD", "param KEY=VALUE" repeated), DETACH
 * (client: no payload), REPLY (daemon: "status N", "errno N", "fix N",
 * "message TEXT", "binding KEY", and "section NAME" for each map fd
 * (.bss, .data) passed with SCM_RIGHTS, in order). A connection attaches at
 * most one program; it stays attached until DETACH or the connection
 * closes.
 *
 * The ring travels as its fd number in the client: the kernel refuses
 * io_uring fds in SCM_RIGHTS (net/core/scm.c, "don't allow io_uring
 * files", since Linux 6.7 and in the stable kernels before it), so the
 * daemon takes the fd from the client's own fd table, with pidfd_getfd()
 * on the pidfd of the connected process (SO_PEERPIDFD). A ring is thus
 * always one the client holds; whose it is, the daemon asks the kernel.
 */
#ifndef __IOURING_BPF_BROKER_PROTO_H
#define __IOURING_BPF_BROKER_PROTO_H

#include <stdint.h>
#include <string.h>

#define IOB_MAGIC		0x44424f49u	/* "IOBD" */
#define IOB_VERSION		1
#define IOB_HDR_SIZE		16
#define IOB_MAX_PAYLOAD		4096
#define IOB_MAX_MSG		(IOB_HDR_SIZE + IOB_MAX_PAYLOAD)
#define IOB_MAX_LINES		64
#define IOB_MAX_LINE		1024
#define IOB_MAX_FDS		4	/* a reply's map fds */
#define IOB_DEFAULT_SOCKET	"/run/iouring-bpfd.sock"

/*
 * a REPLY's status: the CLI's exit codes (docs/iouring-bpf.1), which
 * `iouring-bpf run --broker` exits with
 */
enum iob_status {
	IOB_OK		= 0,
	IOB_FAIL	= 1,	/* something failed: see the message */
	IOB_USAGE	= 2,	/* a bad request or parameter */
	IOB_NOFEATURE	= 3,	/* the kernel lacks what the program needs */
	IOB_PERM	= 4,	/* the policy (or the system) refused */
	IOB_REJECTED	= 5,	/* the verifier refused the program */
};

enum iob_type {
	IOB_ATTACH	= 1,
	IOB_DETACH	= 2,
	IOB_REPLY	= 3,
};

struct iob_line {
	const char	*key;	/* NUL-terminated, in the message's copy */
	const char	*val;
};

struct iob_msg {
	unsigned int	type;
	int		nlines;
	struct iob_line	line[IOB_MAX_LINES];
	char		text[IOB_MAX_PAYLOAD + 1];	/* the payload, split */
};

static inline void iob_put32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static inline uint32_t iob_get32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* the header of a message of type with len payload bytes into buf */
static inline void iob_header(unsigned char *buf, unsigned int type,
			      unsigned int len)
{
	iob_put32(buf, IOB_MAGIC);
	buf[4] = IOB_VERSION;
	buf[5] = 0;
	buf[6] = type;
	buf[7] = type >> 8;
	iob_put32(buf + 8, len);
	iob_put32(buf + 12, 0);
}

/*
 * append "key value\n" to the payload of the message in buf (*len: the
 * bytes so far, header included); control bytes of value become '?'
 * (a message is text). 0, or -1 if it would not fit.
 */
static inline int iob_add(unsigned char *buf, size_t *len, const char *key,
			  const char *val)
{
	size_t k = strlen(key), v = strlen(val), i;

	if (v > IOB_MAX_LINE - k - 2)
		v = IOB_MAX_LINE - k - 2;	/* cut, still one line */
	if (*len + k + v + 2 > IOB_MAX_MSG)
		return -1;
	memcpy(buf + *len, key, k);
	buf[*len + k] = ' ';
	for (i = 0; i < v; i++) {
		unsigned char c = val[i];

		buf[*len + k + 1 + i] = c < 0x20 || c > 0x7e ? '?' : c;
	}
	buf[*len + k + 1 + v] = '\n';
	*len += k + v + 2;
	iob_put32(buf + 8, *len - IOB_HDR_SIZE);
	return 0;
}

/*
 * Decode n bytes of buf into m. 0, or -1 with why (a short text naming
 * the problem) for anything that is not exactly a message of this
 * version: every byte is checked, nothing is trusted.
 */
static inline int iob_decode(const unsigned char *buf, size_t n,
			     struct iob_msg *m, const char **why)
{
	uint32_t len;
	size_t i, start;
	char *t;

	m->nlines = 0;
	m->type = 0;
	if (n < IOB_HDR_SIZE)
		return *why = "truncated header", -1;
	if (iob_get32(buf) != IOB_MAGIC)
		return *why = "bad magic (not an iouring-bpfd message)", -1;
	if (buf[4] != IOB_VERSION || buf[5])
		return *why = "unsupported protocol version", -1;
	m->type = buf[6] | buf[7] << 8;
	if (m->type < IOB_ATTACH || m->type > IOB_REPLY)
		return *why = "unknown message type", -1;
	len = iob_get32(buf + 8);
	if (iob_get32(buf + 12))
		return *why = "reserved header bytes not zero", -1;
	if (len > IOB_MAX_PAYLOAD)
		return *why = "payload too long", -1;
	if (n != IOB_HDR_SIZE + (size_t)len)
		return *why = n < IOB_HDR_SIZE + (size_t)len ?
			"truncated payload" : "bytes after the payload", -1;
	memcpy(m->text, buf + IOB_HDR_SIZE, len);
	m->text[len] = 0;
	t = m->text;
	if (len && t[len - 1] != '\n')
		return *why = "payload does not end with a newline", -1;
	for (i = 0, start = 0; i < len; i++) {
		unsigned char c = t[i];
		char *sp;

		if (c == '\n') {
			if (i == start)
				return *why = "empty line", -1;
			if (i - start > IOB_MAX_LINE)
				return *why = "line too long", -1;
			if (m->nlines == IOB_MAX_LINES)
				return *why = "too many lines", -1;
			t[i] = 0;
			sp = strchr(t + start, ' ');
			if (!sp || sp == t + start)
				return *why = "a line without KEY VALUE", -1;
			*sp = 0;
			m->line[m->nlines].key = t + start;
			m->line[m->nlines].val = sp + 1;
			m->nlines++;
			start = i + 1;
		} else if (c < 0x20 || c > 0x7e) {
			return *why = "control or non-ASCII byte in the payload", -1;
		}
	}
	return 0;
}

/* the value of the first line of key, or NULL */
static inline const char *iob_get(const struct iob_msg *m, const char *key)
{
	int i;

	for (i = 0; i < m->nlines; i++)
		if (!strcmp(m->line[i].key, key))
			return m->line[i].val;
	return NULL;
}

#endif /* __IOURING_BPF_BROKER_PROTO_H */
