/* json.c - a small streaming JSON writer. */
#include "config.h"

#include "json.h"

#include <assert.h>
#include <math.h>

void json_init(struct json *j, FILE *out)
{
	j->out = out;
	j->depth = 0;
	j->need_comma[0] = false;
	j->after_key = false;
}

/* Write the separator a new value needs. */
static void value_start(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->need_comma[j->depth])
		fputs(", ", j->out);
	j->need_comma[j->depth] = true;
}

static void container_begin(struct json *j, char c)
{
	value_start(j);
	fputc(c, j->out);
	assert(j->depth + 1 < JSON_MAX_DEPTH);
	j->need_comma[++j->depth] = false;
}

static void container_end(struct json *j, char c)
{
	assert(j->depth > 0);
	j->depth--;
	fputc(c, j->out);
	if (j->depth == 0)
		fputc('\n', j->out);
}

void json_object_begin(struct json *j)
{
	container_begin(j, '{');
}

void json_object_end(struct json *j)
{
	container_end(j, '}');
}

void json_array_begin(struct json *j)
{
	container_begin(j, '[');
}

void json_array_end(struct json *j)
{
	container_end(j, ']');
}

static void write_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

void json_key(struct json *j, const char *key)
{
	value_start(j);
	write_string(j->out, key);
	fputs(": ", j->out);
	j->after_key = true;
}

void json_string(struct json *j, const char *s)
{
	if (s == NULL) {
		json_null(j);
		return;
	}
	value_start(j);
	write_string(j->out, s);
}

void json_int(struct json *j, long long v)
{
	value_start(j);
	fprintf(j->out, "%lld", v);
}

void json_uint(struct json *j, uint64_t v)
{
	value_start(j);
	fprintf(j->out, "%llu", (unsigned long long)v);
}

void json_double(struct json *j, double v)
{
	if (!isfinite(v)) {
		json_null(j);
		return;
	}
	value_start(j);
	fprintf(j->out, "%.6g", v);
}

void json_bool(struct json *j, bool v)
{
	value_start(j);
	fputs(v ? "true" : "false", j->out);
}

void json_null(struct json *j)
{
	value_start(j);
	fputs("null", j->out);
}

void json_string_field(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, s);
}

void json_int_field(struct json *j, const char *key, long long v)
{
	json_key(j, key);
	json_int(j, v);
}

void json_uint_field(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_uint(j, v);
}

void json_double_field(struct json *j, const char *key, double v)
{
	json_key(j, key);
	json_double(j, v);
}

void json_bool_field(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}
