/* json.h - a small streaming JSON writer for the --json output. */
#ifndef NOUGHTS_JSON_H
#define NOUGHTS_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *out;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
	bool after_key;
};

/* Start writing to OUT. Nesting deeper than JSON_MAX_DEPTH is a bug. */
void json_init(struct json *j, FILE *out);
void json_object_begin(struct json *j);
void json_object_end(struct json *j); /* the outermost also writes "\n" */
void json_array_begin(struct json *j);
void json_array_end(struct json *j);
/* The key of the next value inside an object. */
void json_key(struct json *j, const char *key);
void json_string(struct json *j, const char *s); /* NULL writes null */
void json_int(struct json *j, long long v);
void json_uint(struct json *j, uint64_t v);
void json_double(struct json *j, double v); /* NaN and infinities: null */
void json_bool(struct json *j, bool v);
void json_null(struct json *j);

/* A key and its value, inside an object. */
void json_string_field(struct json *j, const char *key, const char *s);
void json_int_field(struct json *j, const char *key, long long v);
void json_uint_field(struct json *j, const char *key, uint64_t v);
void json_double_field(struct json *j, const char *key, double v);
void json_bool_field(struct json *j, const char *key, bool v);

#endif
