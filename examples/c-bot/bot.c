/* A complete arena bot in C (C99 and POSIX, no libraries), speaking the bot protocol
 * (docs/protocol.md) on stdin/stdout. Like examples/node-bot, it asks for the legal moves
 * in its greeting, so it needs no move generator: it plays the first legal move (the set
 * of the lowest printed rank it can play) and passes only when that is all it may do.
 * Build and run it with:
 *   cc -O2 -o bot examples/c-bot/bot.c
 *   arena match cmd:./bot random random random
 *
 * It reads only what it needs from each request, with a small scanner instead of a JSON
 * library: the type, the id, the first entry of "legal" and, to give cards back, the hand
 * and the count. Card and move texts never hold quotes or backslashes, so a string here
 * is the characters between two quotes. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value after "key": in line (whitespace allowed around the colon), or NULL. The keys
 * looked for (type, id, legal, hand, count) are never nested in another object of the
 * requests this bot receives, so the first one is the request's own. */
static const char *value_of(const char *line, const char *key) {
    char quoted[32];
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    for (const char *at = strstr(line, quoted); at; at = strstr(at + 1, quoted)) {
        const char *p = at + strlen(quoted);
        while (*p == ' ' || *p == '\t') p++;
        if (*p != ':') continue;
        p++;
        while (*p == ' ' || *p == '\t') p++;
        return p;
    }
    return NULL;
}

/* Copies the string that starts at p (its opening quote) into out; returns the position
 * after its closing quote, or NULL. */
static const char *read_string(const char *p, char *out, size_t size) {
    if (!p || *p != '"') return NULL;
    const char *end = strchr(p + 1, '"');
    if (!end || (size_t)(end - p - 1) >= size) return NULL;
    memcpy(out, p + 1, (size_t)(end - p - 1));
    out[end - p - 1] = '\0';
    return end + 1;
}

int main(void) {
    char *line = NULL;
    size_t capacity = 0;
    char type[32], text[256];
    while (getline(&line, &capacity, stdin) != -1) {
        if (!read_string(value_of(line, "type"), type, sizeof type)) continue; /* blank */
        const char *id = value_of(line, "id");
        long number = id ? strtol(id, NULL, 10) : 0;
        if (strcmp(type, "start") == 0) {
            /* legal_moves: every play request will carry "legal", the moves in canonical
             * text, with "pass" last when it is legal. */
            printf("{\"type\":\"ready\",\"id\":%ld,\"name\":\"c-first\",\"version\":\"1.0\","
                   "\"legal_moves\":true}\n", number);
        } else if (strcmp(type, "play") == 0) {
            const char *legal = value_of(line, "legal");
            if (legal && *legal == '[') legal++;
            while (legal && (*legal == ' ' || *legal == '\t')) legal++;
            if (!read_string(legal, text, sizeof text)) strcpy(text, "pass");
            printf("{\"type\":\"move\",\"id\":%ld,\"move\":\"%s\"}\n", number, text);
        } else if (strcmp(type, "exchange") == 0) {
            /* The hand comes sorted low to high: give back the lowest cards. */
            const char *count = value_of(line, "count");
            long left = count ? strtol(count, NULL, 10) : 0;
            const char *p = value_of(line, "hand");
            printf("{\"type\":\"exchange\",\"id\":%ld,\"cards\":[", number);
            for (int k = 0; p && left > 0; k++, left--) {
                p = strchr(p, '"');
                p = read_string(p, text, sizeof text);
                if (!p) break;
                printf("%s\"%s\"", k ? "," : "", text);
            }
            printf("]}\n");
        } else if (strcmp(type, "quit") == 0) {
            break;
        }
        /* "end_deal" needs no answer. */
        fflush(stdout); /* a pipe is block-buffered: without this the referee waits forever */
    }
    free(line);
    return 0;
}
