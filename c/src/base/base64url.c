/* base64url.c - RFC 4648 base64url without padding, strict on input, and
 * finding the snapshot text in a link (snapshot.h). */
#include "juliet/snapshot.h"

static const char alphabet[64] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

size_t jl_base64url_encoded_size(size_t size) { return size / 3 * 4 + (size % 3 ? size % 3 + 1 : 0); }

size_t jl_base64url_decoded_size_max(size_t text_size)
{
    return text_size / 4 * 3 + (text_size % 4 ? text_size % 4 - 1 : 0);
}

size_t jl_base64url_encode(const uint8_t *data, size_t size, char *out)
{
    size_t o = 0, i = 0;
    for (; i + 3 <= size; i += 3) {
        uint32_t v = (uint32_t)data[i] << 16 | (uint32_t)data[i + 1] << 8 | data[i + 2];
        out[o++] = alphabet[v >> 18];
        out[o++] = alphabet[(v >> 12) & 63];
        out[o++] = alphabet[(v >> 6) & 63];
        out[o++] = alphabet[v & 63];
    }
    if (size - i == 1) {
        uint32_t v = (uint32_t)data[i] << 16;
        out[o++] = alphabet[v >> 18];
        out[o++] = alphabet[(v >> 12) & 63];
    } else if (size - i == 2) {
        uint32_t v = (uint32_t)data[i] << 16 | (uint32_t)data[i + 1] << 8;
        out[o++] = alphabet[v >> 18];
        out[o++] = alphabet[(v >> 12) & 63];
        out[o++] = alphabet[(v >> 6) & 63];
    }
    return o;
}

/* The 6-bit value of c, or -1. */
static int sextet(char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '-') return 62;
    if (c == '_') return 63;
    return -1;
}

jl_status jl_base64url_decode(const char *text, size_t text_size, uint8_t *out, size_t out_capacity, size_t *out_size,
                              jl_error *err)
{
    *out_size = 0;
    /* Characters first: the most useful message names the bad one. */
    for (size_t i = 0; i < text_size; i++) {
        if (sextet(text[i]) >= 0) continue;
        unsigned char c = (unsigned char)text[i];
        uint32_t col = i < UINT32_MAX ? (uint32_t)(i + 1) : 0;
        if (c == '=')
            return jl_error_set(err, JL_ERR_CORRUPT, NULL, 1, col,
                                "base64url: padding '=' at character %zu (links carry none)", i + 1);
        return jl_error_set(err, JL_ERR_CORRUPT, NULL, 1, col, "base64url: character 0x%02x at %zu is not base64url", c,
                            i + 1);
    }
    if (text_size % 4 == 1)
        return jl_error_set(err, JL_ERR_CORRUPT, NULL, 1, text_size < UINT32_MAX ? (uint32_t)text_size : 0,
                            "base64url: %zu characters cannot be a whole number of bytes", text_size);
    size_t need = jl_base64url_decoded_size_max(text_size);
    if (need > out_capacity)
        return jl_error_set(err, JL_ERR_CAPACITY, NULL, 0, 0,
                            "base64url: %zu characters decode to %zu bytes, room for %zu", text_size, need,
                            out_capacity);
    uint32_t acc = 0;
    unsigned bits = 0;
    size_t o = 0;
    for (size_t i = 0; i < text_size; i++) {
        acc = acc << 6 | (uint32_t)sextet(text[i]);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    /* Leftover bits must be zero: one text per byte string. */
    if (acc != 0)
        return jl_error_set(err, JL_ERR_CORRUPT, NULL, 1, text_size < UINT32_MAX ? (uint32_t)text_size : 0,
                            "base64url: the last character has stray bits");
    *out_size = o;
    return JL_OK;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

const char *jl_snapshot_link_payload(const char *link, size_t link_size, size_t *payload_size)
{
    size_t start = 0, end = link_size;
    for (size_t i = link_size; i > 0; i--)
        if (link[i - 1] == '#') {
            start = i;
            break;
        }
    while (start < end && is_space(link[start])) start++;
    while (end > start && is_space(link[end - 1])) end--;
    *payload_size = end - start;
    return link + start;
}
