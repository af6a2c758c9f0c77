/* Folio fixed-grid random playouts in plain C: the speed-of-light reference.
 *
 * The same loop as the numba kernel (fourfold/games/placement/kernel.py): generate
 * the legal actions in increasing action order (place * 13 + give), pick one
 * with the same xorshift64* generator and multiply-shift reduction, apply it,
 * and at the end restore the start. With the same seed it plays the very same
 * games, so `fourfold bench` checks that both report the same results.
 *
 * Rules: 4x4 board, 12 kinds (colour * 3 + size), the extra set Rs My Gl Bl,
 * line rule colours-or-sizes (a full line wins with all four colours or all
 * three sizes). Usage: folio_playout GAMES SEED
 * Prints: GAMES WINS0 WINS1 DRAWS SECONDS
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CELLS 16
#define KINDS 12
#define TOTAL 16
#define NONE_GIVE KINDS
#define ACTIONS ((CELLS + 1) * (KINDS + 1))

typedef struct {
    int8_t board[CELLS];
    int8_t supply[KINDS];
    int hand;
    int placed;
    int winner;
    uint32_t occ;
} Position;

static uint32_t line_mask[10];
static int line_cells[10][4];
static int cell_lines[CELLS][4];
static int cell_nlines[CELLS];
static int nlines;
static int features[KINDS];

static void build_tables(void) {
    static const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++)
            for (int d = 0; d < 4; d++) {
                int ok = 1, cells[4];
                for (int j = 0; j < 4; j++) {
                    int cx = x + j * dirs[d][0], cy = y + j * dirs[d][1];
                    if (cx < 0 || cx > 3 || cy < 0 || cy > 3) ok = 0;
                    cells[j] = cy * 4 + cx;
                }
                if (!ok) continue;
                line_mask[nlines] = 0;
                for (int j = 0; j < 4; j++) {
                    line_cells[nlines][j] = cells[j];
                    line_mask[nlines] |= 1u << cells[j];
                    cell_lines[cells[j]][cell_nlines[cells[j]]++] = nlines;
                }
                nlines++;
            }
    for (int k = 0; k < KINDS; k++) features[k] = (1 << (k / 3)) | (1 << (4 + k % 3));
}

static void reset(Position *p) {
    static const int extra[4] = {0, 4, 8, 11};
    memset(p->board, -1, sizeof p->board);
    for (int k = 0; k < KINDS; k++) p->supply[k] = 1;
    for (int i = 0; i < 4; i++) p->supply[extra[i]]++;
    p->hand = -1;
    p->placed = 0;
    p->winner = -1;
    p->occ = 0;
}

static int wins_at(const Position *p, int cell, int kind) {
    uint32_t occ = p->occ | (1u << cell);
    for (int j = 0; j < cell_nlines[cell]; j++) {
        int line = cell_lines[cell][j];
        if ((occ & line_mask[line]) != line_mask[line]) continue;
        int o = features[kind];
        for (int i = 0; i < 4; i++) {
            int c = line_cells[line][i];
            if (c != cell) o |= features[p->board[c]];
        }
        if ((o & 0xF) == 0xF || (o & 0x70) == 0x70) return 1;
    }
    return 0;
}

static int legal_actions(const Position *p, int *out) {
    int count = 0;
    if (p->winner >= 0 || p->placed == TOTAL) return 0;
    if (p->hand < 0) {
        for (int g = 0; g < KINDS; g++)
            if (p->supply[g] > 0) out[count++] = CELLS * (KINDS + 1) + g;
        return count;
    }
    /* the gives of the first placement, reused (shifted) for the others */
    int gives = 0, first = 0, shift = 0;
    for (int c = 0; c < CELLS; c++) {
        if (p->occ >> c & 1u) continue;
        int base = c * (KINDS + 1);
        if (p->placed >= 3 && wins_at(p, c, p->hand)) {
            out[count++] = base + NONE_GIVE;
        } else if (gives == 0) {
            first = count;
            for (int g = 0; g < KINDS; g++)
                if (p->supply[g] > 0) out[count++] = base + g;
            gives = count - first;
            if (gives == 0) {  /* nothing left to give */
                out[count++] = base + NONE_GIVE;
                gives = -1;
            } else {
                shift = -base;
            }
        } else if (gives < 0) {
            out[count++] = base + NONE_GIVE;
        } else {
            for (int j = 0; j < gives; j++) out[count + j] = out[first + j] + shift + base;
            count += gives;
        }
    }
    return count;
}

static void apply(Position *p, int action) {
    int place = action / (KINDS + 1), give = action % (KINDS + 1);
    if (place < CELLS) {
        int won = p->placed >= 3 && wins_at(p, place, p->hand);
        p->board[place] = (int8_t)p->hand;
        p->occ |= 1u << place;
        if (won) p->winner = p->placed % 2;
        p->placed++;
    }
    if (give < KINDS) {
        p->supply[give]--;
        p->hand = give;
    } else {
        p->hand = -1;
    }
}

static uint64_t rng;

static uint64_t rng_next(void) {
    uint64_t x = rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng = x;
    return x * 2685821657736338717ULL;
}

static int rng_below(int bound) {
    uint64_t r = rng_next() >> 32;
    return (int)((r * (uint64_t)bound) >> 32);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s GAMES SEED\n", argv[0]);
        return 2;
    }
    long games = atol(argv[1]);
    uint64_t seed = strtoull(argv[2], NULL, 10);
    rng = seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
    if (rng == 0) rng = 1;
    build_tables();
    Position start, p;
    reset(&start);
    int moves[ACTIONS];
    long results[3] = {0, 0, 0};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < games; i++) {
        p = start;
        for (;;) {
            int count = legal_actions(&p, moves);
            if (count == 0) break;
            apply(&p, moves[rng_below(count)]);
        }
        results[p.winner >= 0 ? p.winner : 2]++;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("%ld %ld %ld %ld %.6f\n", games, results[0], results[1], results[2], seconds);
    return 0;
}
