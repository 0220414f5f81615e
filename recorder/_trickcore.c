/*
 * kroeg.recorder._trickcore: the C twin of kroeg/recorder/trickcore.py.
 *
 * The same functions with the same arguments and the same answers as the Python
 * reference (tests/recorder/test_trickcore.py holds them equal on random positions of
 * every rule set); the reference's docstrings say what each one means. Cards are indices
 * into the game's deck (suit by suit, strongest first, `ranks` a suit), hands are bit
 * masks or, where the order held matters, sequences; seats are 0..7, -1 for none.
 *
 * Everything that comes from Python is checked here before use: a bad argument raises
 * TypeError or ValueError, never reads or writes out of bounds. Built by setup.py with
 * the machine's compiler (plain C99 and the CPython C API, nothing else); where it is not
 * built, trickcore.py runs in Python.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SEATS 8
#define MAX_CARDS 64
/* A trick holds at most one card a seat to start with, then at most n - 1 more. */
#define MAX_TRICK (2 * MAX_SEATS)

/* -- the rules, on plain integers ------------------------------------------------------ */

static uint64_t suit_cards(int suit, int ranks)
{
    uint64_t one_suit = ranks >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << ranks) - 1);
    return one_suit << (suit * ranks);
}

static uint64_t playable_mask(uint64_t hand, int led, int ranks)
{
    if (led >= 0) {
        uint64_t follow = hand & suit_cards(led, ranks);
        if (follow)
            return follow;
    }
    return hand;
}

/* The position in `cards` of the winning card (see trickcore.trick_winner). */
static int winner_of(const int *cards, int count, int led, int trump, int ranks)
{
    int best = 0, best_key = 0;
    for (int i = 0; i < count; i++) {
        int suit = cards[i] / ranks, key;
        if (suit == trump)
            key = 2 * ranks - cards[i] % ranks;
        else if (suit == led)
            key = ranks - cards[i] % ranks;
        else
            continue;
        if (key > best_key) {
            best = i;
            best_key = key;
        }
    }
    return best;
}

static int next_seat(int n, unsigned live, int leader, int first, int last)
{
    if (last < 0) {
        for (int i = 0; i < n; i++) {
            int seat = (leader + i) % n;
            if (live >> seat & 1)
                return seat;
        }
        return -1;
    }
    for (int i = 1; i <= n; i++) {
        int seat = (last + i) % n;
        if (seat == first)
            return -1;
        if (live >> seat & 1)
            return seat;
    }
    return -1;
}

/* The reference policy's position in `hand` (see trickcore.reference_pick); -1: empty. */
static int pick(const uint8_t *hand, int count, int led, int ranks, int lowest)
{
    uint64_t mask = 0;
    for (int i = 0; i < count; i++)
        mask |= (uint64_t)1 << hand[i];
    uint64_t legal = playable_mask(mask, led, ranks);
    int best = -1, best_rank = -1;
    for (int i = 0; i < count; i++) {
        if (!(legal >> hand[i] & 1))
            continue;
        int rank = hand[i] % ranks;
        if (best < 0 || (lowest ? rank > best_rank : rank < best_rank)) {
            best = i;
            best_rank = rank;
        }
    }
    return best;
}

/* The winner's seat of a complete trick: only the cards of seats still in count. */
static int trick_taker(const int *seats, const int *cards, int count, unsigned live, int trump,
                       int ranks)
{
    int counted[MAX_TRICK], counted_cards[MAX_TRICK], k = 0;
    for (int i = 0; i < count; i++) {
        if (live >> seats[i] & 1) {
            counted[k] = i;
            counted_cards[k++] = cards[i];
        }
    }
    if (k == 0)
        return -1;
    return seats[counted[winner_of(counted_cards, k, cards[0] / ranks, trump, ranks)]];
}

/* -- reading arguments ----------------------------------------------------------------- */

static int get_int(PyObject *obj, const char *name, long lo, long hi, int *out)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.50s", name, Py_TYPE(obj)->tp_name);
        return -1;
    }
    int overflow = 0;
    long value = PyLong_AsLongAndOverflow(obj, &overflow);
    if (value == -1 && PyErr_Occurred())
        return -1;
    if (overflow || value < lo || value > hi) {
        PyErr_Format(PyExc_ValueError, "%s must be %ld to %ld, found %R", name, lo, hi, obj);
        return -1;
    }
    *out = (int)value;
    return 0;
}

static int get_mask(PyObject *obj, const char *name, int bits, uint64_t *out)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.50s", name, Py_TYPE(obj)->tp_name);
        return -1;
    }
    uint64_t value = PyLong_AsUnsignedLongLong(obj);
    if (value == (uint64_t)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be a mask of %d bits, found %R", name, bits, obj);
        return -1;
    }
    if (bits < 64 && value >> bits) {
        PyErr_Format(PyExc_ValueError, "%s must be a mask of %d bits, found %R", name, bits, obj);
        return -1;
    }
    *out = value;
    return 0;
}

/* A sequence of ints in lo..hi into `out` (at most `cap` of them); its length, or -1. */
static Py_ssize_t get_ints(PyObject *obj, const char *name, long lo, long hi, int *out,
                           Py_ssize_t cap)
{
    PyObject *seq = PySequence_Fast(obj, "");
    if (seq == NULL) {
        PyErr_Format(PyExc_TypeError, "%s must be a sequence of ints, not %.50s", name,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count > cap) {
        PyErr_Format(PyExc_ValueError, "%s holds %zd items, at most %zd allowed", name, count, cap);
        Py_DECREF(seq);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < count; i++) {
        if (get_int(items[i], name, lo, hi, &out[i]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return count;
}

static int check_nargs(Py_ssize_t nargs, Py_ssize_t expected, const char *function)
{
    if (nargs != expected) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)", function, expected,
                     nargs);
        return -1;
    }
    return 0;
}

/* The table's shape, checked together: n seats, `ranks` cards a suit, the seats in. */
typedef struct {
    int n, ranks, cards; /* cards: 4 * ranks, the size of the deck */
    unsigned live;
} Table;

static int get_table(PyObject *const *args, Table *table)
{
    int live;
    if (get_int(args[0], "n", 1, MAX_SEATS, &table->n) < 0
        || get_int(args[2], "ranks", 1, MAX_CARDS / 4, &table->ranks) < 0
        || get_int(args[1], "live", 0, (1L << table->n) - 1, &live) < 0)
        return -1;
    table->live = (unsigned)live;
    table->cards = 4 * table->ranks;
    return 0;
}

/* -- the simple rules, for Python ------------------------------------------------------ */

static PyObject *py_playable(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int led, ranks;
    uint64_t hand;
    if (check_nargs(nargs, 3, "playable") < 0 || get_int(args[2], "ranks", 1, 16, &ranks) < 0
        || get_mask(args[0], "hand", 4 * ranks, &hand) < 0
        || get_int(args[1], "led", -1, 3, &led) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(playable_mask(hand, led, ranks));
}

static PyObject *py_trick_winner(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int led, trump, ranks, cards[MAX_CARDS];
    if (check_nargs(nargs, 4, "trick_winner") < 0 || get_int(args[3], "ranks", 1, 16, &ranks) < 0
        || get_int(args[1], "led", -1, 3, &led) < 0
        || get_int(args[2], "trump", -1, 3, &trump) < 0)
        return NULL;
    Py_ssize_t count = get_ints(args[0], "cards", 0, 4 * ranks - 1, cards, MAX_CARDS);
    if (count < 0)
        return NULL;
    return PyLong_FromLong(winner_of(cards, (int)count, led, trump, ranks));
}

static PyObject *py_next_to_play(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int n, live, leader, first, last;
    if (check_nargs(nargs, 5, "next_to_play") < 0 || get_int(args[0], "n", 1, MAX_SEATS, &n) < 0
        || get_int(args[1], "live", 0, (1L << n) - 1, &live) < 0
        || get_int(args[2], "leader", 0, n - 1, &leader) < 0
        || get_int(args[3], "first", -1, n - 1, &first) < 0
        || get_int(args[4], "last", -1, n - 1, &last) < 0)
        return NULL;
    return PyLong_FromLong(next_seat(n, (unsigned)live, leader, first, last));
}

static PyObject *py_reference_pick(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int led, ranks, cards[MAX_CARDS];
    uint8_t hand[MAX_CARDS];
    if (check_nargs(nargs, 4, "reference_pick") < 0
        || get_int(args[2], "ranks", 1, 16, &ranks) < 0
        || get_int(args[1], "led", -1, 3, &led) < 0)
        return NULL;
    int lowest = PyObject_IsTrue(args[3]);
    if (lowest < 0)
        return NULL;
    Py_ssize_t count = get_ints(args[0], "hand", 0, 4 * ranks - 1, cards, MAX_CARDS);
    if (count < 0)
        return NULL;
    for (Py_ssize_t i = 0; i < count; i++)
        hand[i] = (uint8_t)cards[i];
    int best = pick(hand, (int)count, led, ranks, lowest);
    if (best < 0) {
        PyErr_SetString(PyExc_ValueError, "no card to play: the hand is empty");
        return NULL;
    }
    return PyLong_FromLong(best);
}

/* -- the play-outs --------------------------------------------------------------------- */

/* A trick under way: who played what, in order. */
typedef struct {
    int count, seats[MAX_TRICK], cards[MAX_TRICK];
} Trick;

static int get_trick(PyObject *seats, PyObject *cards, const Table *table, Trick *trick)
{
    Py_ssize_t count = get_ints(seats, "trick_seats", 0, table->n - 1, trick->seats, table->n);
    if (count < 0)
        return -1;
    Py_ssize_t same = get_ints(cards, "trick_cards", 0, table->cards - 1, trick->cards, table->n);
    if (same < 0)
        return -1;
    if (same != count) {
        PyErr_Format(PyExc_ValueError, "trick_seats has %zd items but trick_cards %zd", count, same);
        return -1;
    }
    trick->count = (int)count;
    return 0;
}

/* Every seat's cards of one deal (in the order held), checked: n hands of cards of the
 * deck, no card twice nor one already in the trick. */
typedef struct {
    int count[MAX_SEATS];
    uint8_t cards[MAX_SEATS][MAX_CARDS];
} Deal;

static int get_deal(PyObject *obj, const Table *table, uint64_t in_trick, Deal *deal)
{
    PyObject *seq = PySequence_Fast(obj, "each deal must be a sequence of hands");
    if (seq == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != table->n) {
        PyErr_Format(PyExc_ValueError, "a deal must hold %d hands (one a seat), found %zd",
                     table->n, PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    uint64_t seen = in_trick;
    int cards[MAX_CARDS];
    for (int seat = 0; seat < table->n; seat++) {
        Py_ssize_t count = get_ints(PySequence_Fast_GET_ITEM(seq, seat), "hand", 0,
                                    table->cards - 1, cards, table->cards);
        if (count < 0) {
            Py_DECREF(seq);
            return -1;
        }
        for (Py_ssize_t i = 0; i < count; i++) {
            uint64_t bit = (uint64_t)1 << cards[i];
            if (seen & bit) {
                PyErr_Format(PyExc_ValueError, "card %d is dealt twice (or is in the trick)",
                             cards[i]);
                Py_DECREF(seq);
                return -1;
            }
            seen |= bit;
            deal->cards[seat][i] = (uint8_t)cards[i];
        }
        deal->count[seat] = (int)count;
    }
    Py_DECREF(seq);
    return 0;
}

/* The seat taking the last trick of one deal; -1 with an exception set. */
static int play_out(const Table *table, int trump, int lowest, int hand_size, int trick_no,
                    int leader, const Trick *start, Deal *deal)
{
    Trick trick = *start;
    int ranks = table->ranks, no = trick_no < 1 ? 1 : trick_no;
    for (;;) {
        int first = trick.count ? trick.seats[0] : -1;
        int last = trick.count ? trick.seats[trick.count - 1] : -1;
        int mover = next_seat(table->n, table->live, leader, first, last);
        if (mover >= 0) {
            int led = trick.count ? trick.cards[0] / ranks : -1;
            uint8_t *hand = deal->cards[mover];
            int held = deal->count[mover];
            int at = pick(hand, held, led, ranks, lowest);
            if (at < 0 || trick.count >= MAX_TRICK) {
                PyErr_SetString(PyExc_ValueError, "no card to play: the hand is empty");
                return -1;
            }
            trick.seats[trick.count] = mover;
            trick.cards[trick.count++] = hand[at];
            memmove(hand + at, hand + at + 1, (size_t)(held - at - 1)); /* keep the order */
            deal->count[mover] = held - 1;
            continue;
        }
        leader = trick_taker(trick.seats, trick.cards, trick.count, table->live, trump, ranks);
        if (leader < 0) {
            PyErr_SetString(PyExc_ValueError, "a trick without a card of a player still in");
            return -1;
        }
        if (no >= hand_size)
            return leader;
        no++;
        trick.count = 0;
    }
}

/* The position a play-out starts from, the first ten arguments of `play_outs` and
 * `sampled_play_outs`: (n, live, ranks, trump, lowest, hand_size, trick_no, leader,
 * trick_seats, trick_cards). */
typedef struct {
    Table table;
    int trump, lowest, hand_size, trick_no, leader;
    Trick trick;
    uint64_t in_trick; /* the trick's cards, as a mask */
} Start;

static int get_start(PyObject *const *args, Start *start)
{
    if (get_table(args, &start->table) < 0 || get_int(args[3], "trump", -1, 3, &start->trump) < 0
        || get_int(args[5], "hand_size", 1, MAX_CARDS, &start->hand_size) < 0
        || get_int(args[6], "trick_no", 0, MAX_CARDS, &start->trick_no) < 0
        || get_int(args[7], "leader", 0, start->table.n - 1, &start->leader) < 0
        || get_trick(args[8], args[9], &start->table, &start->trick) < 0)
        return -1;
    start->lowest = PyObject_IsTrue(args[4]);
    if (start->lowest < 0)
        return -1;
    start->in_trick = 0;
    for (int i = 0; i < start->trick.count; i++)
        start->in_trick |= (uint64_t)1 << start->trick.cards[i];
    return 0;
}

static PyObject *py_play_outs(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Start start;
    if (check_nargs(nargs, 11, "play_outs") < 0 || get_start(args, &start) < 0)
        return NULL;
    const Table table = start.table;
    const Trick trick = start.trick;
    int trump = start.trump, lowest = start.lowest, hand_size = start.hand_size;
    int trick_no = start.trick_no, leader = start.leader;
    uint64_t in_trick = start.in_trick;
    PyObject *deals = PySequence_Fast(args[10], "deals must be a sequence of deals");
    if (deals == NULL)
        return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(deals);
    PyObject *takers = PyList_New(count);
    if (takers == NULL) {
        Py_DECREF(deals);
        return NULL;
    }
    Deal deal;
    for (Py_ssize_t i = 0; i < count; i++) {
        int taker;
        if (get_deal(PySequence_Fast_GET_ITEM(deals, i), &table, in_trick, &deal) < 0
            || (taker = play_out(&table, trump, lowest, hand_size, trick_no, leader, &trick,
                                 &deal)) < 0) {
            Py_DECREF(takers);
            Py_DECREF(deals);
            return NULL;
        }
        PyList_SET_ITEM(takers, i, PyLong_FromLong(taker)); /* small ints: cannot fail */
    }
    Py_DECREF(deals);
    return takers;
}

/* -- the perfect-information search ---------------------------------------------------- */

/* Positions at the start of a trick, solved: the cards still held (which, the deal being
 * fixed, say who holds what) and the leader. Open addressing; grows at half full. */
typedef struct {
    uint64_t held;
    int8_t leader; /* -1: an empty slot */
    int8_t answer;
} Solved;

typedef struct {
    Table table;
    int trump, seat;
    unsigned takes;
    Solved *slots;
    size_t capacity, used;
} Search;

static size_t slot_of(uint64_t held, int leader, size_t capacity)
{
    uint64_t x = held * 8 + (uint64_t)leader + 0x9E3779B97F4A7C15ULL; /* splitmix64 */
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return (size_t)(x ^ (x >> 31)) & (capacity - 1);
}

static Solved *find_slot(Solved *slots, size_t capacity, uint64_t held, int leader)
{
    size_t i = slot_of(held, leader, capacity);
    while (slots[i].leader >= 0 && (slots[i].held != held || slots[i].leader != leader))
        i = (i + 1) & (capacity - 1);
    return &slots[i];
}

static int remember(Search *search, uint64_t held, int leader, int answer)
{
    if (2 * (search->used + 1) > search->capacity) {
        size_t capacity = search->capacity * 2;
        Solved *slots = malloc(capacity * sizeof(Solved));
        if (slots == NULL)
            return -1;
        for (size_t i = 0; i < capacity; i++)
            slots[i].leader = -1;
        for (size_t i = 0; i < search->capacity; i++)
            if (search->slots[i].leader >= 0)
                *find_slot(slots, capacity, search->slots[i].held, search->slots[i].leader) =
                    search->slots[i];
        free(search->slots);
        search->slots = slots;
        search->capacity = capacity;
    }
    Solved *slot = find_slot(search->slots, search->capacity, held, leader);
    slot->held = held;
    slot->leader = (int8_t)leader;
    slot->answer = (int8_t)answer;
    search->used++;
    return 0;
}

/* 1: `seat` can force it from here, 0: cannot, -1: out of memory. `hands` (a mask a seat)
 * is changed while searching and restored before returning. */
static int force(Search *search, uint64_t *hands, const Trick *trick, int leader)
{
    const Table *table = &search->table;
    int ranks = table->ranks;
    int first = trick->count ? trick->seats[0] : -1;
    int last = trick->count ? trick->seats[trick->count - 1] : -1;
    int mover = next_seat(table->n, table->live, leader, first, last);
    if (mover < 0) { /* the trick is complete */
        int winner = trick_taker(trick->seats, trick->cards, trick->count, table->live,
                                 search->trump, ranks);
        uint64_t held = 0;
        for (int s = 0; s < table->n; s++)
            held |= hands[s];
        if (held == 0 || winner < 0)
            return winner >= 0 && (search->takes >> winner & 1);
        Solved *slot = find_slot(search->slots, search->capacity, held, winner);
        if (slot->leader >= 0)
            return slot->answer;
        Trick fresh;
        fresh.count = 0;
        int answer = force(search, hands, &fresh, winner);
        if (answer < 0 || remember(search, held, winner, answer) < 0)
            return -1;
        return answer;
    }
    if (trick->count >= MAX_TRICK)
        return 0; /* cannot happen (see MAX_TRICK); never write past the trick */
    int led = trick->count ? trick->cards[0] / ranks : -1;
    int forcing = mover == search->seat;
    uint64_t legal = playable_mask(hands[mover], led, ranks);
    Trick next = *trick;
    next.count = trick->count + 1;
    next.seats[trick->count] = mover;
    while (legal) {
        uint64_t low = legal & (~legal + 1);
        legal ^= low;
        next.cards[trick->count] = __builtin_ctzll(low);
        hands[mover] ^= low;
        int answer = force(search, hands, &next, leader);
        hands[mover] ^= low;
        if (answer < 0)
            return -1;
        if (answer == forcing)
            return forcing; /* one good card is enough for `seat`; one refutation for the others */
    }
    return !forcing;
}

static PyObject *py_can_force(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Search search;
    int takes, leader;
    Trick trick;
    uint64_t hands[MAX_SEATS] = {0};
    if (check_nargs(nargs, 10, "can_force") < 0 || get_table(args, &search.table) < 0
        || get_int(args[3], "trump", -1, 3, &search.trump) < 0
        || get_int(args[4], "seat", 0, search.table.n - 1, &search.seat) < 0
        || get_int(args[5], "takes", 0, (1L << search.table.n) - 1, &takes) < 0
        || get_trick(args[7], args[8], &search.table, &trick) < 0
        || get_int(args[9], "leader", 0, search.table.n - 1, &leader) < 0)
        return NULL;
    search.takes = (unsigned)takes;
    PyObject *seq = PySequence_Fast(args[6], "hands must be a sequence of masks");
    if (seq == NULL)
        return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != search.table.n) {
        PyErr_Format(PyExc_ValueError, "hands must hold %d masks (one a seat), found %zd",
                     search.table.n, PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return NULL;
    }
    uint64_t seen = 0;
    for (int i = 0; i < trick.count; i++)
        seen |= (uint64_t)1 << trick.cards[i];
    for (int s = 0; s < search.table.n; s++) {
        if (get_mask(PySequence_Fast_GET_ITEM(seq, s), "hand", search.table.cards, &hands[s]) < 0) {
            Py_DECREF(seq);
            return NULL;
        }
        if (hands[s] & seen) {
            PyErr_SetString(PyExc_ValueError, "a card is held twice (or is in the trick)");
            Py_DECREF(seq);
            return NULL;
        }
        seen |= hands[s];
    }
    Py_DECREF(seq);
    search.capacity = 64;
    search.used = 0;
    search.slots = malloc(search.capacity * sizeof(Solved));
    if (search.slots == NULL)
        return PyErr_NoMemory();
    for (size_t i = 0; i < search.capacity; i++)
        search.slots[i].leader = -1;
    int answer = force(&search, hands, &trick, leader);
    free(search.slots);
    if (answer < 0)
        return PyErr_NoMemory();
    return PyBool_FromLong(answer);
}

/* -- the random draws of the hidden deals ---------------------------------------------- */

/* Python's own random.Random draws, reproduced exactly: the Mersenne Twister (MT19937, as
 * CPython's _randommodule.c runs it) started from `rng.getstate()`, `shuffle` as
 * random.shuffle (Fisher-Yates, each index drawn by rejection over getrandbits(k)), and
 * `finish` handing the state back with `rng.setstate`, so that the game's random source
 * goes on exactly where Python's shuffles would have left it. */
#define MT_N 624
#define MT_M 397

typedef struct {
    PyObject_HEAD
    PyObject *rng;        /* the random.Random these draws come from */
    PyObject *gauss_next; /* the rest of its state, kept as it was */
    uint32_t state[MT_N];
    int index;
    int finished;
} Draws;

static uint32_t genrand_uint32(Draws *self)
{
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    if (self->index >= MT_N) { /* generate MT_N words at one time */
        uint32_t *mt = self->state;
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        self->index = 0;
    }
    y = self->state[self->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.Random._randbelow(n) for 2 <= n < 2**31: getrandbits(k) until below n. */
static uint32_t below(Draws *self, uint32_t n)
{
    int k = 32 - __builtin_clz(n); /* n.bit_length() */
    uint32_t r = genrand_uint32(self) >> (32 - k);
    while (r >= n)
        r = genrand_uint32(self) >> (32 - k);
    return r;
}

static void Draws_dealloc(Draws *self)
{
    Py_XDECREF(self->rng);
    Py_XDECREF(self->gauss_next);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Draws_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *rng, *state = NULL, *words;
    if (!PyArg_ParseTuple(args, "O:Draws", &rng))
        return NULL;
    state = PyObject_CallMethod(rng, "getstate", NULL);
    if (state == NULL)
        return NULL;
    /* (3, 624 words and the index, gauss_next): random.Random's state, version 3 */
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != 3
        || !PyTuple_Check(words = PyTuple_GET_ITEM(state, 1))
        || PyTuple_GET_SIZE(words) != MT_N + 1) {
        PyErr_SetString(PyExc_TypeError, "Draws needs a random.Random (version 3 state)");
        Py_DECREF(state);
        return NULL;
    }
    Draws *self = (Draws *)type->tp_alloc(type, 0);
    if (self == NULL) {
        Py_DECREF(state);
        return NULL;
    }
    for (int i = 0; i <= MT_N; i++) {
        unsigned long word = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(words, i));
        if (PyErr_Occurred() || word > 0xffffffffUL || (i == MT_N && word > MT_N)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "not a Mersenne Twister state");
            Py_DECREF(state);
            Py_DECREF(self);
            return NULL;
        }
        if (i < MT_N)
            self->state[i] = (uint32_t)word;
        else
            self->index = (int)word;
    }
    Py_INCREF(rng);
    self->rng = rng;
    self->gauss_next = PyTuple_GET_ITEM(state, 2);
    Py_INCREF(self->gauss_next);
    Py_DECREF(state);
    return (PyObject *)self;
}

static PyObject *Draws_shuffle(Draws *self, PyObject *cards)
{
    if (!PyList_Check(cards)) {
        PyErr_Format(PyExc_TypeError, "shuffle needs a list, not %.50s", Py_TYPE(cards)->tp_name);
        return NULL;
    }
    if (self->finished) {
        PyErr_SetString(PyExc_ValueError, "these draws are finished");
        return NULL;
    }
    Py_ssize_t count = PyList_GET_SIZE(cards);
    if (count >= 0x7fffffff) {
        PyErr_SetString(PyExc_ValueError, "too many cards to shuffle");
        return NULL;
    }
    PyObject **items = ((PyListObject *)cards)->ob_item;
    for (Py_ssize_t i = count - 1; i > 0; i--) {
        Py_ssize_t j = (Py_ssize_t)below(self, (uint32_t)(i + 1));
        PyObject *swap = items[i];
        items[i] = items[j];
        items[j] = swap;
    }
    Py_RETURN_NONE;
}

/* random.shuffle of `count` ints, the same draws as Draws_shuffle. */
static void shuffle_ints(Draws *self, int *cards, int count)
{
    for (int i = count - 1; i > 0; i--) {
        int j = (int)below(self, (uint32_t)(i + 1));
        int swap = cards[i];
        cards[i] = cards[j];
        cards[j] = swap;
    }
}

/* The seats a supposed deal goes to, in order: how many cards each, its voids (suits). */
typedef struct {
    int count, seats[MAX_SEATS], need[MAX_SEATS];
    unsigned voids[MAX_SEATS];
} Hidden;

#define REJECTIONS 64 /* as trickcore.REJECTIONS */

/* trickcore.python_supposed: one supposed deal of `pool` to `hidden`'s seats into `out`
 * (out_count[k] cards for the k-th), with the same draws in the same order. */
static void supposed(Draws *self, const Hidden *hidden, const int *pool, int pool_count,
                     int ranks, int out[][MAX_CARDS], int *out_count)
{
    int cards[MAX_CARDS], rest[MAX_CARDS];
    for (int attempt = 0; attempt < REJECTIONS; attempt++) {
        memcpy(cards, pool, (size_t)pool_count * sizeof(int));
        shuffle_ints(self, cards, pool_count);
        int start = 0, kept = 1;
        for (int k = 0; k < hidden->count && kept; k++) {
            int end = start + hidden->need[k] < pool_count ? start + hidden->need[k] : pool_count;
            int got = end > start ? end - start : 0;
            for (int i = 0; i < got; i++) {
                int card = cards[start + i];
                if (hidden->voids[k] >> (card / ranks) & 1U) {
                    kept = 0;
                    break;
                }
                out[k][i] = card;
            }
            out_count[k] = got;
            start += hidden->need[k];
        }
        if (kept)
            return;
    }
    for (int attempt = 0; attempt < 20; attempt++) {
        memcpy(cards, pool, (size_t)pool_count * sizeof(int));
        shuffle_ints(self, cards, pool_count);
        int left = pool_count, kept = 1;
        for (int k = 0; k < hidden->count; k++) {
            int fit = 0, rest_count = 0;
            for (int i = 0; i < left; i++) {
                int card = cards[i];
                if (fit < hidden->need[k] && !(hidden->voids[k] >> (card / ranks) & 1U))
                    out[k][fit++] = card;
                else
                    rest[rest_count++] = card;
            }
            if (fit < hidden->need[k]) {
                kept = 0;
                break;
            }
            out_count[k] = fit;
            memcpy(cards, rest, (size_t)rest_count * sizeof(int));
            left = rest_count;
        }
        if (kept)
            return;
    }
    memcpy(cards, pool, (size_t)pool_count * sizeof(int));
    shuffle_ints(self, cards, pool_count);
    int start = 0;
    for (int k = 0; k < hidden->count; k++) {
        int got = pool_count - start < hidden->need[k] ? pool_count - start : hidden->need[k];
        if (got < 0)
            got = 0;
        for (int i = 0; i < got; i++)
            out[k][i] = cards[start + i];
        out_count[k] = got;
        start += got;
    }
}

static int get_hidden(PyObject *obj, const Table *table, Hidden *hidden)
{
    PyObject *seq = PySequence_Fast(obj, "hidden must be a sequence of (seat, cards, voids)");
    if (seq == NULL)
        return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count > table->n) {
        PyErr_Format(PyExc_ValueError, "hidden holds %zd seats, the table %d", count, table->n);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        int item[3];
        Py_ssize_t got = get_ints(PySequence_Fast_GET_ITEM(seq, k), "hidden", 0, MAX_CARDS,
                                  item, 3);
        const char *wrong = NULL;
        if (got >= 0 && got != 3)
            wrong = "each hidden seat is (seat, cards, voids)";
        else if (got == 3 && item[0] >= table->n)
            wrong = "a hidden seat that is not at the table";
        else if (got == 3 && item[2] > 15)
            wrong = "voids must be a mask of 4 suits";
        if (wrong != NULL)
            PyErr_SetString(PyExc_ValueError, wrong);
        if (got < 0 || wrong != NULL) {
            Py_DECREF(seq);
            return -1;
        }
        hidden->seats[k] = item[0];
        hidden->need[k] = item[1];
        hidden->voids[k] = (unsigned)item[2];
    }
    hidden->count = (int)count;
    Py_DECREF(seq);
    return 0;
}

static PyObject *Draws_sampled_play_outs(Draws *self, PyObject *const *args, Py_ssize_t nargs)
{
    Start start;
    int samples, pool[MAX_CARDS];
    Hidden hidden;
    if (self->finished) {
        PyErr_SetString(PyExc_ValueError, "these draws are finished");
        return NULL;
    }
    if (check_nargs(nargs, 14, "sampled_play_outs") < 0 || get_start(args, &start) < 0
        || get_hidden(args[11], &start.table, &hidden) < 0
        || get_int(args[13], "samples", 0, 1L << 24, &samples) < 0)
        return NULL;
    const Table table = start.table;
    uint64_t in_trick = start.in_trick;
    Deal fixed;
    if (get_deal(args[10], &table, in_trick, &fixed) < 0)
        return NULL;
    Py_ssize_t pool_count = get_ints(args[12], "pool", 0, table.cards - 1, pool, MAX_CARDS);
    if (pool_count < 0)
        return NULL;
    /* The pool holds cards nobody is known to hold: none twice, none fixed or in the trick. */
    uint64_t taken = in_trick;
    for (int seat = 0; seat < table.n; seat++)
        for (int i = 0; i < fixed.count[seat]; i++)
            taken |= (uint64_t)1 << fixed.cards[seat][i];
    for (Py_ssize_t i = 0; i < pool_count; i++) {
        uint64_t bit = (uint64_t)1 << pool[i];
        if (taken & bit) {
            PyErr_Format(PyExc_ValueError, "card %d of the pool is held, played or twice there",
                         pool[i]);
            return NULL;
        }
        taken |= bit;
    }
    for (int k = 0; k < hidden.count; k++) {
        if (fixed.count[hidden.seats[k]] + hidden.need[k] > MAX_CARDS) {
            PyErr_SetString(PyExc_ValueError, "a hidden seat would hold too many cards");
            return NULL;
        }
    }
    PyObject *takers = PyList_New(samples);
    if (takers == NULL)
        return NULL;
    int out[MAX_SEATS][MAX_CARDS], out_count[MAX_SEATS];
    for (int sample = 0; sample < samples; sample++) {
        supposed(self, &hidden, pool, (int)pool_count, table.ranks, out, out_count);
        Deal deal = fixed;
        for (int k = 0; k < hidden.count; k++) {
            int seat = hidden.seats[k];
            for (int i = 0; i < out_count[k]; i++)
                deal.cards[seat][deal.count[seat] + i] = (uint8_t)out[k][i];
            deal.count[seat] += out_count[k];
        }
        int taker = play_out(&table, start.trump, start.lowest, start.hand_size, start.trick_no,
                             start.leader, &start.trick, &deal);
        if (taker < 0) {
            Py_DECREF(takers);
            return NULL;
        }
        PyList_SET_ITEM(takers, sample, PyLong_FromLong(taker)); /* small ints: cannot fail */
    }
    return takers;
}

static PyObject *Draws_finish(Draws *self, PyObject *unused)
{
    if (self->finished)
        Py_RETURN_NONE;
    PyObject *words = PyTuple_New(MT_N + 1);
    if (words == NULL)
        return NULL;
    for (int i = 0; i < MT_N; i++) {
        PyObject *word = PyLong_FromUnsignedLong(self->state[i]);
        if (word == NULL) {
            Py_DECREF(words);
            return NULL;
        }
        PyTuple_SET_ITEM(words, i, word);
    }
    PyObject *index = PyLong_FromLong(self->index);
    if (index == NULL) {
        Py_DECREF(words);
        return NULL;
    }
    PyTuple_SET_ITEM(words, MT_N, index);
    PyObject *state = Py_BuildValue("(iNO)", 3, words, self->gauss_next);
    if (state == NULL)
        return NULL;
    PyObject *done = PyObject_CallMethod(self->rng, "setstate", "(N)", state);
    if (done == NULL)
        return NULL;
    Py_DECREF(done);
    self->finished = 1;
    Py_RETURN_NONE;
}

static PyMethodDef Draws_methods[] = {
    {"shuffle", (PyCFunction)Draws_shuffle, METH_O,
     "shuffle(cards): random.shuffle(cards), the same draws in the same order."},
    {"sampled_play_outs", (PyCFunction)(void (*)(void))Draws_sampled_play_outs, METH_FASTCALL,
     "sampled_play_outs(n, live, ranks, trump, lowest, hand_size, trick_no, leader, "
     "trick_seats, trick_cards, fixed, hidden, pool, samples): the last trick's taker of each "
     "of `samples` supposed deals (trickcore.python_sampled_play_outs), with these draws."},
    {"finish", (PyCFunction)Draws_finish, METH_NOARGS,
     "finish(): hand the state back to the random source (rng.setstate)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject DrawsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "kroeg.recorder._trickcore.Draws",
    .tp_basicsize = sizeof(Draws),
    .tp_dealloc = (destructor)Draws_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Draws(rng): random.shuffle's draws from rng, in C; finish() writes them back.",
    .tp_methods = Draws_methods,
    .tp_new = Draws_new,
};

/* -- the module ------------------------------------------------------------------------ */

static PyMethodDef methods[] = {
    {"playable", (PyCFunction)(void (*)(void))py_playable, METH_FASTCALL,
     "playable(hand, led, ranks): the cards of `hand` that may be played (follow suit)."},
    {"trick_winner", (PyCFunction)(void (*)(void))py_trick_winner, METH_FASTCALL,
     "trick_winner(cards, led, trump, ranks): which of the live cards wins the trick."},
    {"next_to_play", (PyCFunction)(void (*)(void))py_next_to_play, METH_FASTCALL,
     "next_to_play(n, live, leader, first, last): who plays next (-1: the trick is complete)."},
    {"reference_pick", (PyCFunction)(void (*)(void))py_reference_pick, METH_FASTCALL,
     "reference_pick(hand, led, ranks, lowest): the reference policy's card, a position."},
    {"play_outs", (PyCFunction)(void (*)(void))py_play_outs, METH_FASTCALL,
     "play_outs(n, live, ranks, trump, lowest, hand_size, trick_no, leader, trick_seats, "
     "trick_cards, deals): the last trick's taker for each deal."},
    {"can_force", (PyCFunction)(void (*)(void))py_can_force, METH_FASTCALL,
     "can_force(n, live, ranks, trump, seat, takes, hands, trick_seats, trick_cards, leader): "
     "can `seat` make sure the last trick goes to a seat in `takes`?"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_trickcore",
    "The C twin of kroeg.recorder.trickcore: the trick rules on integers.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__trickcore(void)
{
    if (PyType_Ready(&DrawsType) < 0)
        return NULL;
    PyObject *created = PyModule_Create(&module);
    if (created == NULL)
        return NULL;
    Py_INCREF(&DrawsType);
    if (PyModule_AddObject(created, "Draws", (PyObject *)&DrawsType) < 0) {
        Py_DECREF(&DrawsType);
        Py_DECREF(created);
        return NULL;
    }
    return created;
}
