/* An outside solver for Quarto and Folio fixed-grid positions, written from the rules
 * (/work/shared/RULES.md, docs/rules/quarto.md, docs/rules/folio.md) and sharing no
 * code, tables or symmetry reduction with fourfold's solvers and kernels.
 *
 * Rules, as read here: a 4x4 board holds 16 pieces. The player to move places the piece
 * in hand on any empty cell; a placement that completes a row, column or long diagonal
 * of four pieces that satisfy the line rule wins for the one who placed it. Otherwise,
 * if pieces are left, that player gives the opponent one of them (the next piece in
 * hand). Sixteen pieces down without a winning line is a draw. A position with no
 * piece in hand is the start: the first ply only gives.
 *
 * Line rules:
 *   quarto                      16 pieces, one of each combination of four two-valued
 *                               attributes; a line wins when its four pieces share an
 *                               attribute value.
 *   folio-colours-or-sizes      Folio's 16 pyramids (every colour R Y G B x size s m l
 *                               once, plus Rs Ym Gl Bl a second time); a line wins when
 *                               it holds all four colours or all three sizes.
 *   folio-same-colour-or-size   the same pieces; a line wins when its four pieces are
 *                               one colour or one size.
 *
 * Scores (the convention the project's solver reports in): from the side to move,
 * WIN - n for a win on the placement that puts the n-th piece on the board, -(WIN - n)
 * for a loss there, 0 for a draw. The winner wants the game short, the loser long.
 * The search is a plain negamax with alpha-beta over every placement and every give:
 * no transposition table, no symmetry, no pruning of gives, so nothing can make it
 * wrong but the rules themselves. A win on the spot ends a node (no score beats it).
 *
 * Input, one position a line:   RULES POSITION
 *   POSITION is the project's position text: cell=piece items joined by ';' (or '-'),
 *   a space, and the piece in hand (or '-'); "-" alone for an empty board. Cells a1..d4;
 *   Quarto pieces TDRH..SLQF (T/S, D/L, R/Q, H/F in that order); Folio pieces Rs..Bl.
 * Output, one line per position:   VALUE DISTANCE NODES
 *   VALUE win, draw or loss for the side to move; DISTANCE the plies to the end under
 *   perfect play; NODES the positions searched. A bad line prints "error: ..." and the
 *   program exits with status 2.
 *
 * Build: cc -O2 -o quarto_outside quarto_outside.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CELLS 16
#define EMPTY (-1)
#define WIN 100
#define INF 1000
#define MAX_KINDS 16

enum rule { QUARTO, FOLIO_COLOURS_OR_SIZES, FOLIO_SAME_COLOUR_OR_SIZE };

static enum rule rule;
static int kinds;                 /* how many kinds of piece the set has */
static int count_left[MAX_KINDS]; /* pieces of each kind neither placed nor in hand */
static int board[CELLS];          /* the kind on each cell (cell = 4 * rank + file), or EMPTY */
static long long nodes;

/* The ten lines of the 4x4 board. */
static const int LINES[10][4] = {
    {0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15},   /* ranks */
    {0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15},   /* files */
    {0, 5, 10, 15}, {3, 6, 9, 12},                                  /* diagonals */
};

/* Folio kinds are colour * 3 + size: colours R Y G B = 0..3, sizes s m l = 0..2. */
static int colour_of(int kind) { return kind / 3; }
static int size_of(int kind) { return kind % 3; }

/* Do these four pieces make a winning line? */
static int wins(const int piece[4])
{
    int i;
    if (rule == QUARTO) {
        /* a Quarto kind is four bits, one per attribute: shared value = a bit set in
           all four, or clear in all four */
        int all_set = 15, all_clear = 15;
        for (i = 0; i < 4; i++) {
            all_set &= piece[i];
            all_clear &= ~piece[i];
        }
        return all_set != 0 || all_clear != 0;
    }
    if (rule == FOLIO_COLOURS_OR_SIZES) {
        int colours = 0, sizes = 0;
        for (i = 0; i < 4; i++) {
            colours |= 1 << colour_of(piece[i]);
            sizes |= 1 << size_of(piece[i]);
        }
        return colours == 15 || sizes == 7;
    }
    /* FOLIO_SAME_COLOUR_OR_SIZE */
    {
        int same_colour = 1, same_size = 1;
        for (i = 1; i < 4; i++) {
            if (colour_of(piece[i]) != colour_of(piece[0])) same_colour = 0;
            if (size_of(piece[i]) != size_of(piece[0])) same_size = 0;
        }
        return same_colour || same_size;
    }
}

/* Does some full line through ``cell`` win? */
static int wins_through(int cell)
{
    int l, i;
    for (l = 0; l < 10; l++) {
        int piece[4], full = 1, through = 0;
        for (i = 0; i < 4; i++) {
            piece[i] = board[LINES[l][i]];
            if (piece[i] == EMPTY) full = 0;
            if (LINES[l][i] == cell) through = 1;
        }
        if (through && full && wins(piece)) return 1;
    }
    return 0;
}

/* Does any full line on the board win? */
static int any_win(void)
{
    int cell;
    for (cell = 0; cell < CELLS; cell++)
        if (board[cell] != EMPTY && wins_through(cell)) return 1;
    return 0;
}

static int search(int placed, int hand, int alpha, int beta);

/* The score of giving a piece to the opponent, who then holds it with ``placed`` pieces
   down: the best over every kind left (identical pieces are one choice). */
static int give(int placed, int alpha, int beta)
{
    int best = -INF, kind;
    for (kind = 0; kind < kinds; kind++) {
        int score;
        if (count_left[kind] == 0) continue;
        count_left[kind]--;
        score = -search(placed, kind, -beta, -alpha);
        count_left[kind]++;
        if (score > best) best = score;
        if (best > alpha) alpha = best;
        if (alpha >= beta) break;
    }
    return best;
}

/* The score for the side to move, which holds ``hand`` with ``placed`` pieces down. */
static int search(int placed, int hand, int alpha, int beta)
{
    int best = -INF, cell;
    nodes++;
    /* a placement that wins at once is the best there is */
    for (cell = 0; cell < CELLS; cell++) {
        int won;
        if (board[cell] != EMPTY) continue;
        board[cell] = hand;
        won = wins_through(cell);
        board[cell] = EMPTY;
        if (won) return WIN - (placed + 1);
    }
    for (cell = 0; cell < CELLS; cell++) {
        int score;
        if (board[cell] != EMPTY) continue;
        board[cell] = hand;
        if (placed + 1 == CELLS)
            score = 0; /* the last piece, and no line: a draw */
        else
            score = give(placed + 1, alpha, beta);
        board[cell] = EMPTY;
        if (score > best) best = score;
        if (best > alpha) alpha = best;
        if (alpha >= beta) break;
    }
    return best;
}

static int fail(const char *what, const char *line)
{
    printf("error: %s in %s\n", what, line);
    fflush(stdout);
    exit(2);
}

/* A piece's kind from its name, or -1. */
static int parse_piece(const char *text, size_t length)
{
    if (rule == QUARTO) {
        static const char *values = "TSDLRQHF"; /* attribute a: values[2a] sets the bit */
        int kind = 0, a;
        if (length != 4) return -1;
        for (a = 0; a < 4; a++) {
            if (text[a] == values[2 * a]) kind |= 1 << a;
            else if (text[a] != values[2 * a + 1]) return -1;
        }
        return kind;
    } else {
        const char *colour = length == 2 ? strchr("RYGB", text[0]) : NULL;
        const char *size = length == 2 ? strchr("sml", text[1]) : NULL;
        if (!colour || !size || !text[0] || !text[1]) return -1;
        return (int)(colour - "RYGB") * 3 + (int)(size - "sml");
    }
}

static void set_rule(const char *name, const char *line)
{
    int kind;
    if (strcmp(name, "quarto") == 0) rule = QUARTO;
    else if (strcmp(name, "folio-colours-or-sizes") == 0) rule = FOLIO_COLOURS_OR_SIZES;
    else if (strcmp(name, "folio-same-colour-or-size") == 0) rule = FOLIO_SAME_COLOUR_OR_SIZE;
    else fail("unknown rules", line);
    kinds = rule == QUARTO ? 16 : 12;
    for (kind = 0; kind < kinds; kind++) count_left[kind] = 1;
    if (rule != QUARTO) {
        /* the four second pieces: small red, medium yellow, large green, large blue */
        count_left[0 * 3 + 0]++;
        count_left[1 * 3 + 1]++;
        count_left[2 * 3 + 2]++;
        count_left[3 * 3 + 2]++;
    }
}

static void solve_line(char *line)
{
    char rules[64], placements[256], hand_text[16];
    int placed = 0, hand, score, value, end, cell;
    char *item;
    if (sscanf(line, "%63s %255s %15s", rules, placements, hand_text) != 3)
        fail("expected RULES PLACEMENTS HAND", line);
    set_rule(rules, line);
    for (cell = 0; cell < CELLS; cell++) board[cell] = EMPTY;
    if (strcmp(placements, "-") != 0) {
        for (item = strtok(placements, ";-"); item; item = strtok(NULL, ";-")) {
            char *eq = strchr(item, '=');
            int kind, file, rank;
            if (!eq || eq - item != 2) fail("a placement is not cell=piece", line);
            file = item[0] - 'a';
            rank = item[1] - '1';
            if (file < 0 || file > 3 || rank < 0 || rank > 3) fail("a cell is off the board", line);
            cell = 4 * rank + file;
            if (board[cell] != EMPTY) fail("two pieces on one cell", line);
            kind = parse_piece(eq + 1, strlen(eq + 1));
            if (kind < 0) fail("a piece is not of the set", line);
            if (count_left[kind]-- == 0) fail("more of a piece placed than the set holds", line);
            board[cell] = kind;
            placed++;
        }
    }
    if (any_win()) fail("the game is over (a line wins)", line);
    if (placed == CELLS) fail("the game is over (the board is full)", line);
    nodes = 0;
    if (strcmp(hand_text, "-") == 0) {
        if (placed != 0) fail("no piece in hand after the start", line);
        score = give(0, -INF, INF);
    } else {
        hand = parse_piece(hand_text, strlen(hand_text));
        if (hand < 0) fail("the piece in hand is not of the set", line);
        if (count_left[hand]-- == 0) fail("the piece in hand is not left", line);
        score = search(placed, hand, -INF, INF);
    }
    /* plies to the end: one per piece still to go down, and the opening give */
    if (score == 0) {
        value = 0;
        end = CELLS;
    } else {
        value = score > 0 ? 1 : -1;
        end = WIN - abs(score);
    }
    printf("%s %d %lld\n", value > 0 ? "win" : value < 0 ? "loss" : "draw",
           end - placed + (strcmp(hand_text, "-") == 0 ? 1 : 0), nodes);
    fflush(stdout);
}

int main(void)
{
    char line[1024];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '\0') continue;
        solve_line(line);
    }
    return 0;
}
