/* pscw.pml — post/start/complete/wait on the am path, protocol fewest (the default), as
 * AmWin::post, release_held_pscw, issue_pscw, complete and wait (rma_impl/am/am_origin.cpp)
 * and on_packet (am_target.cpp) do it on main: post sends nothing; each origin numbers its
 * access epochs to a target and sends an epoch's ops ahead of the post, every one flagged
 * pscw with the epoch's number and the last also done (no op: a bare done flagged the
 * same); the target holds what arrives for an epoch it has not posted yet and applies it,
 * in arrival order, at that post. An origin sends ahead only while the epoch's bytes plus
 * what it sent ahead since the last post it received fit the hold budget; else it asks
 * (post + pscw with the epoch's number), waits for the target's post, then sends.
 *
 * Three ranks, ROUNDS epochs: rank 0 posts to ranks 1 and 2 and waits; each origin starts,
 * queues 0..NOPS ops (accumulate or get) to rank 0 and completes. Sizes as held_bytes()
 * counts them: a 48-byte header per op plus an accumulate's data, 8 bytes from origin 1, 64
 * from origin 2, and a lone done's header; BUDGET = 120, so an origin may run one epoch ahead but rarely two, and
 * origin 2's larger batches ask first.
 *
 * Properties: exposed (an op is applied at rank 0 only inside the exposure epoch its access
 * epoch matches: a held op only at its post), wait_complete (wait returns only once every
 * op of the round is applied), applied_once (each op applied exactly once: at most once at
 * each application, all at wait), held_within_budget (the bytes rank 0 holds for an origin
 * never exceed BUDGET), invalid end states, LTL epochs_complete.
 * Mutations (-D): DONE_ON_FIRST (done on the first op of the batch, not the last),
 * APPLY_AHEAD (the target applies a pscw op at once instead of holding it to its post),
 * IGNORE_UNCONFIRMED (the origin's budget test forgets what it already sent ahead),
 * DONE_FREE (the origin counts an empty epoch's lone done as 0 bytes, though the target
 * holds its header). */

#include "../packet.pml"

#define NR 3
#define NOPS 2
#define ROUNDS 2
#define CAP 6           /* channel capacity: two epochs' packets and an ask */
#define HMAX (ROUNDS * NOPS)

#define HDR 48
#define ACC_DATA(o) (((o) == 1) -> 8 : 64)
#ifndef BUDGET
#define BUDGET 120
#endif
#define OP_BYTES(k, o) (((k) == accumulate) -> (HDR + ACC_DATA(o)) : HDR)
/* what a held packet occupies: an op's bytes, a lone done its header */
#define HELD_BYTES(k, o) (((k) == accumulate || (k) == get || (k) == done) -> OP_BYTES(k, o) : 0)

#ifdef DONE_ON_FIRST
#define DONE_FLAG ((sc == 0) -> flag_done : 0)
#else
#define DONE_FLAG ((sc == nops - 1) -> flag_done : 0)
#endif

chan to_t[NR] = [CAP] of { mtype, short, byte, byte };  /* origin -> rank 0: type, flags, seq, op id */
chan to_o[NR] = [CAP] of { mtype, short, byte, byte };  /* rank 0 -> origin (flags: short, flag_pscw is bit 8) */

/* rank 0, per origin: posts made, the epoch it was asked a post for, what it holds */
byte posts_made[NR], post_asked[NR];
mtype hk[NR * HMAX];
short hf[NR * HMAX];
byte hs[NR * HMAX], hid[NR * HMAX];
byte hn[NR];
byte done_received;

/* ghosts */
byte exposure;              /* round + 1 of rank 0's open exposure epoch, 0: none */
byte sent_ops[ROUNDS];      /* ops the origins queued in each round */
byte applied[ROUNDS];       /* ops applied in each round */
byte applied_op[NR * ROUNDS * NOPS];  /* how often op k of origin o's epoch r was applied */
byte held_b[NR];            /* bytes rank 0 holds for o */
bool fin[NR];
hidden byte exposed, wait_complete, applied_once, held_within_budget;
hidden mtype h_t;
hidden short h_f;
hidden byte h_s, h_id, h_src, hi;

ltl epochs_complete { <> (fin[0] && fin[1] && fin[2]) }

/* on_packet at rank 0, for a packet that is not held: an op, a done, an ask */
inline deliver(src, k, f, s, id) {
  if
  :: k == done -> done_received++
  :: k == post ->   /* an origin asks for the post of its epoch s */
     if
     :: posts_made[src] >= s -> to_o[src]!post, 0, 0, 0
     :: else -> post_asked[src] = s
     fi
  :: k == accumulate || k == get ->
     exposed = (exposure == s);
     assert(exposed);
     applied_once = (applied_op[(src * ROUNDS + s - 1) * NOPS + id] == 0);
     assert(applied_once);
     applied_op[(src * ROUNDS + s - 1) * NOPS + id]++;
     applied[s - 1]++;
     if :: k == get -> to_o[src]!get_resp, 0, s, id :: else fi;
     if :: f & flag_done -> done_received++ :: else fi
  fi
}

#ifdef APPLY_AHEAD   /* mutation: a pscw op ahead of its post applied at once (done still held) */
#define AHEAD(f, k, s, src) (((f) & flag_pscw) && (k) == done && (s) > posts_made[src])
#else
#define AHEAD(f, k, s, src) (((f) & flag_pscw) && (k) != post && (s) > posts_made[src])
#endif

inline on_packet(src, k, f, s, id) {
  if
  :: AHEAD(f, k, s, src) ->   /* ahead of this target's post for epoch s: held */
     hk[src * HMAX + hn[src]] = k; hf[src * HMAX + hn[src]] = f;
     hs[src * HMAX + hn[src]] = s; hid[src * HMAX + hn[src]] = id;
     hn[src]++;
     held_b[src] = held_b[src] + HELD_BYTES(k, src);
     held_within_budget = (held_b[src] <= BUDGET);
     assert(held_within_budget)
  :: else -> deliver(src, k, f, s, id)
  fi
}

/* release_held_pscw: the due packets are at the front (an origin sends its epochs in order) */
inline release_held(r) {
  do
  :: hn[r] > 0 && hs[r * HMAX] <= posts_made[r] ->
     held_b[r] = held_b[r] - HELD_BYTES(hk[r * HMAX], r);
     deliver(r, hk[r * HMAX], hf[r * HMAX], hs[r * HMAX], hid[r * HMAX]);
     hi = 1;
     do
     :: hi < hn[r] ->
        hk[r * HMAX + hi - 1] = hk[r * HMAX + hi]; hf[r * HMAX + hi - 1] = hf[r * HMAX + hi];
        hs[r * HMAX + hi - 1] = hs[r * HMAX + hi]; hid[r * HMAX + hi - 1] = hid[r * HMAX + hi];
        hi++
     :: else -> break
     od;
     hn[r]--;
     hk[r * HMAX + hn[r]] = 0; hf[r * HMAX + hn[r]] = 0; hs[r * HMAX + hn[r]] = 0;
     hid[r * HMAX + hn[r]] = 0;
     hi = 0
  :: else -> break
  od
}

/* AmWin::post for origin r: one more post made, an outstanding ask answered, held released */
inline post_to(r) {
  posts_made[r]++;
  if
  :: post_asked[r] != 0 && post_asked[r] <= posts_made[r] -> post_asked[r] = 0; to_o[r]!post, 0, 0, 0
  :: else
  fi;
  release_held(r)
}

/* rank 0's progress: packets are handled whenever they come (the async agent), before a
 * post as well as inside wait */
active proctype target() {
end_target:
  do
  :: atomic { to_t[1]?h_t, h_f, h_s, h_id -> h_src = 1; on_packet(h_src, h_t, h_f, h_s, h_id);
              h_t = 0; h_f = 0; h_s = 0; h_id = 0; h_src = 0 }
  :: atomic { to_t[2]?h_t, h_f, h_s, h_id -> h_src = 2; on_packet(h_src, h_t, h_f, h_s, h_id);
              h_t = 0; h_f = 0; h_s = 0; h_id = 0; h_src = 0 }
  od
}

/* rank 0's application: ROUNDS times post to ranks 1 and 2, then wait */
active proctype rank0() {
  byte round;
  do
  :: round < ROUNDS ->
     atomic { done_received = 0; exposure = round + 1; post_to(1); post_to(2) };
     atomic {
       done_received >= 2 ->
       wait_complete = (applied[round] == sent_ops[round]);
       assert(wait_complete);
       done_received = done_received - 2;
       exposure = 0;
       round++
     }
  :: else -> break
  od;
  /* nothing an origin sent ahead may stay held */
  assert(hn[1] == 0 && hn[2] == 0);
  fin[0] = true
}

/* what comes back to an origin: the answer to its ask, a get's reply */
inline recv() {
  atomic {
    to_o[o]?rt, rf, rs, rid;
    if
    :: rt == post -> posts_received++; unconfirmed = 0
    :: rt == get_resp -> local_pending--
    fi;
    rt = 0; rf = 0; rs = 0; rid = 0
  }
}

/* issue_pscw: the batch (gets last), each op flagged pscw with the epoch, done on the last;
 * no op: a bare done flagged the same */
inline issue_pscw() {
  if
  :: nops == 0 -> to_t[o]!done, flag_pscw, seq, 0
  :: nops > 0 ->
     k = 0;
     do
     :: k < nops && kind[k] != get -> to_t[o]!kind[k], flag_pscw | DONE_FLAG, seq, k; sc++; k++
     :: k < nops && kind[k] == get -> k++
     :: k == nops -> break
     od;
     k = 0;
     do
     :: k < nops && kind[k] == get ->
        local_pending++; to_t[o]!get, flag_pscw | DONE_FLAG, seq, k; sc++; k++
     :: k < nops && kind[k] != get -> k++
     :: k == nops -> break
     od
  fi;
  k = 0; sc = 0
}

#ifdef IGNORE_UNCONFIRMED
#define FITS (qbytes <= BUDGET)
#else
#define FITS (qbytes <= BUDGET && unconfirmed <= BUDGET - qbytes)
#endif

proctype origin(byte o) {
  byte round, nops, k, sc, seq, qbytes, unconfirmed, posts_received, posts_consumed;
  byte local_pending;
  bool asked;
  mtype kind[NOPS];
  mtype rt; short rf; byte rs, rid;
  do
  :: round < ROUNDS ->
     atomic {
       if :: nops = 0 :: nops = 1 :: nops = 2 fi;
       k = 0;
       qbytes = 0;
       do
       :: k < nops -> if :: kind[k] = accumulate :: kind[k] = get fi;
                      qbytes = qbytes + OP_BYTES(kind[k], o); k++
       :: else -> break
       od;
#ifndef DONE_FREE   /* mutation: a lone done counted as 0 bytes (the code before this fix) */
       if :: nops == 0 -> qbytes = HDR :: else fi;
#endif
       sent_ops[round] = sent_ops[round] + nops;
       k = 0
     };
     /* complete: ahead of the post when it fits, else ask and wait for the post */
     atomic {
       seq++;
       if
       :: FITS -> unconfirmed = unconfirmed + qbytes; issue_pscw(); asked = false
       :: else -> to_t[o]!post, flag_pscw, seq, 0; asked = true
       fi
     };
     if
     :: asked ->
        do
        :: posts_received > posts_consumed -> break
        :: recv()
        od;
        atomic { posts_consumed++; issue_pscw(); asked = false }
     :: else
     fi;
     do
     :: local_pending == 0 -> break
     :: recv()
     od;
     round++
  :: else -> break
  od;
  fin[o] = true
}

init {
  atomic { run origin(1); run origin(2) }
}
