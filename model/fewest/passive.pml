/* passive.pml — passive-target epochs on the am path, protocol fewest (the default): ops go
 * ahead of the lock grant and the target holds them until it, within the hold budget; an
 * epoch whose batch does not fit asks first, as ch3. As rma_impl/am/am_origin.cpp
 * (AmWin::advance, fits_hold_budget, held_bytes), am_send.cpp (send_op, issue_batch) and
 * am_target.cpp
 * (on_packet, hold_if_waiting, handle_op, grant, release, execute_op, complete_at_target)
 * do it on main.
 *
 * Three ranks. Rank 0 is the target: its progress (the `target` process, one atomic step
 * per packet, as under the engine lock) and its application thread, which locks its own
 * window (taken at the call, no message) and applies one op there. Ranks 1 and 2 are
 * origins: each makes one epoch to rank 0 of a nondeterministic shape — shared or
 * exclusive, 0..NOPS ops each an accumulate or a get, closed by unlock, by flush then
 * unlock, or by flush_local then unlock. Sizes as held_bytes() counts them: a 48-byte header
 * per op plus an accumulate's data, 8 bytes from origin 1, 64 from origin 2. BUDGET = 120:
 * every 2-op batch of origin 1 goes ahead (two accumulates: 112), of origin 2 only two gets
 * (96); its other 2-op batches (160, 224) ask first. A single op fits (112 at most), as at
 * the defaults (64 KiB against the 16 KiB eager limit); with -DBUDGET=100 origin 2's single
 * accumulate (112) does not, and asks first.
 * The transport: one ordered reliable channel per direction per pair.
 *
 * A release the code runs nested inside a grant (a held op carrying the unlock) is queued
 * and run after the grant, in the same atomic step: the lock manager hands out grants only
 * at the FIFO's head, so the holders, the FIFO and what each origin receives end the same.
 *
 * Properties (assertions name the property they check; see check.py):
 *   mutual_exclusion    no two exclusive holders, no exclusive with a shared holder
 *   no_overtaking       a shared request never granted before a waiting exclusive one
 *   applied_in_epoch    an op is applied only while its origin holds the lock: a held op
 *                       only at its grant
 *   applied_once        every op applied at most once, and (unlock_complete) at least once
 *   acc_order           accumulates from one origin applied in issue order
 *   unlock_complete     when unlock returns, every op of the epoch has been applied
 *   held_within_budget  the bytes the target holds for one origin never exceed BUDGET
 *   message_count       lock..unlock costs what docs/message-counts.md says for fewest
 *   invalid end states (deadlock), and the LTL property epochs_complete.
 *
 * Mutations (-D): GRANT_IGNORES_TABLE, HELD_OP_EARLY, DROP_ACK, NO_SINGLETON, GET_NOT_LAST
 * (faults of RMA_FAULT, rma_impl/core/fault.hpp), SHARED_OVERTAKES, DROP_UNLOCK,
 * IGNORE_BUDGET (the origin sends every batch ahead of the grant). */

#include "../packet.pml"

#define NR 3            /* ranks */
#define NOPS 2          /* most ops per epoch */
#define CAP 4           /* channel capacity: more than a pair ever has in flight */
#define HMAX (NOPS + 1) /* what a waiting request can hold: its ops, then an unlock or flush */

#define HDR 48          /* sizeof(progress::PacketHeader) */
#define ACC_DATA(o) (((o) == 1) -> 8 : 64)  /* an accumulate's eager data */
#ifndef BUDGET
#define BUDGET 120      /* hold_budget */
#endif
#define OP_BYTES(k, o) (((k) == accumulate) -> (HDR + ACC_DATA(o)) : HDR)

#include "../lock_manager.pml"

/* origin-side lock state (AmTarget::Lock) and closing modes (Closing) */
#define L_NONE 0
#define L_REQ 1
#define L_GRANTED 2
#define C_UNLOCK 0
#define C_FLUSH 1
#define C_FLUSH_LOCAL 2
/* phases of AmWin::advance */
#define P_BEGIN 0
#define P_AWAIT 1
#define P_READY 2
#define P_ISSUED 3
#define P_DONE 4

/* fewest sends a batch ahead exactly when it fits (fits_hold_budget): a single op too, so a
 * single op bigger than the budget asks first */
#ifdef NO_SINGLETON   /* held_bytes() is SIZE_MAX: every epoch asks */
#define FITS(b) false
#else
#ifdef IGNORE_BUDGET
#define FITS(b) true
#else
#define FITS(b) ((b) <= BUDGET)
#endif
#endif

chan to_t[NR] = [CAP] of { mtype, byte, byte };  /* origin o -> rank 0: type, flags, op id */
chan to_o[NR] = [CAP] of { mtype, byte, byte };  /* rank 0 -> origin o */
chan relq = [NR] of { byte };                    /* releases still to run (AmWin::release) */

/* the target's held packets per origin (LockRequest::held of o's waiting request) */
mtype hk[NR * HMAX];
byte hf[NR * HMAX], hid[NR * HMAX];
byte hn[NR];

/* ghosts */
byte applied[NR * NOPS];    /* how often op k of origin o was applied */
byte last_acc[NR];          /* 1 + index of o's last accumulate applied */
byte msgs[NR];              /* packets between o and rank 0 in o's epoch */
byte held_b[NR];            /* bytes rank 0 holds for o (held_bytes' measure) */
bool fin[NR];               /* the rank's epoch completed */
bool self_held;             /* rank 0 holds the lock on its own window (self_lock_held_) */

hidden mtype h_t, lm_gk;
hidden byte h_f, h_id, h_src, h_rel, lm_go, lm_gt, lm_gtk, lm_gf, lm_gid, gi;
hidden byte lm_ok, lm_gop, h_w;
hidden byte applied_in_epoch, applied_once, acc_order, unlock_complete, message_count;
hidden byte held_within_budget;

ltl epochs_complete { <> (fin[0] && fin[1] && fin[2]) }

/* --- rank 0: the target ------------------------------------------------------------------- */

inline send_ack(o) {
#ifdef DROP_ACK   /* RMA_FAULT=drop_ack: the target never sends acks */
  skip
#else
  to_o[o]!ack, 0, 0; msgs[o]++
#endif
}

/* execute_op + complete_at_target */
inline execute_op(src, k, f, id) {
  applied_in_epoch = (hold[src] != 0);
  assert(applied_in_epoch);
  applied_once = (applied[src * NOPS + id] == 0);
  assert(applied_once);
  applied[src * NOPS + id]++;
  if
  :: k == accumulate ->
     acc_order = (last_acc[src] < id + 1);
     assert(acc_order);
     last_acc[src] = id + 1
  :: else
  fi;
  if :: k == get -> to_o[src]!get_resp, 0, id; msgs[src]++ :: else fi;
  if :: (f & flag_ack_req) && k != get -> send_ack(src) :: else fi;
  if :: f & flag_unlock -> relq!src :: else fi
}

/* LockManager::waiting_request(src) != nullptr */
inline lm_waiting(o) {
  h_w = false;
  lm_i = 0;
  do
  :: lm_i < wq_len -> if :: wq_o[lm_i] == o -> h_w = true :: else fi; lm_i++
  :: else -> break
  od;
  lm_i = 0
}

/* append a packet to o's held list (the op that came with the request, or one after it) */
inline hold_packet(o, k, f, id) {
  hk[o * HMAX + hn[o]] = k; hf[o * HMAX + hn[o]] = f; hid[o * HMAX + hn[o]] = id;
  hn[o]++;
  if :: k == accumulate || k == get -> held_b[o] = held_b[o] + OP_BYTES(k, o) :: else fi;
  held_within_budget = (held_b[o] <= BUDGET);
  assert(held_within_budget)
}

/* on_packet for a held packet replayed at its grant: its request is no longer waiting, and
 * only the first held op carries a lock flag, so it is an op, an unlock or a flush */
inline replay(o, k, f, id) {
  if
  :: k == unlock -> if :: f & flag_ack_req -> send_ack(o) :: else fi; relq!o
  :: k == flush -> send_ack(o)
  :: else -> execute_op(o, k, f, id)
  fi
}

/* AmWin::grant: rank 0's own request; a request with held packets (the first executed,
 * the rest as if arriving now, in order); or a bare lock */
inline grant(g) {
  if
  :: g == 0 -> self_held = true
  :: g != 0 && hn[g] > 0 ->
     held_b[g] = 0;
     execute_op(g, hk[g * HMAX], hf[g * HMAX], hid[g * HMAX]);
     gi = 1;
     do
     :: gi < hn[g] -> replay(g, hk[g * HMAX + gi], hf[g * HMAX + gi], hid[g * HMAX + gi]); gi++
     :: else -> break
     od;
     gi = 0;
     do
     :: gi < hn[g] -> hk[g * HMAX + gi] = 0; hf[g * HMAX + gi] = 0; hid[g * HMAX + gi] = 0; gi++
     :: else -> break
     od;
     gi = 0;
     hn[g] = 0
  :: g != 0 && hn[g] == 0 -> to_o[g]!lock_granted, 0, 0; msgs[g]++
  fi
}

/* AmWin::release, for every release queued */
inline run_releases() {
  do
  :: relq?h_rel ->
     if
     :: hold[h_rel] != 0 ->
        drop_holder(h_rel);
        do
        :: wq_len > 0 && COMPAT(wq_t[0]) ->
           lm_pop();
           add_holder(lm_go, lm_gt, lm_gtk);
           grant(lm_go);
           if :: lm_gt == EX -> break :: else fi
        :: else -> break
        od
     :: else
     fi
  :: empty(relq) -> break
  od;
  h_rel = 0; lm_go = 0; lm_gt = 0; lm_gtk = 0; lm_gop = false; lm_gk = 0; lm_gf = 0; lm_gid = 0
}

#ifdef HELD_OP_EARLY   /* RMA_FAULT=held_op_early: ops behind a waiting request are not held */
#define HOLDS_OPS false
#else
#define HOLDS_OPS true
#endif

inline handle_packet() {
  lm_waiting(h_src);
  if
  :: h_w && (h_t == unlock || h_t == flush) -> hold_packet(h_src, h_t, h_f, h_id)
  :: h_w && (h_t == accumulate || h_t == get) && HOLDS_OPS -> hold_packet(h_src, h_t, h_f, h_id)
  :: else ->
     if
     :: h_t == lock ->
        lm_request(h_src, ((h_f & flag_lock_shared) -> SH : EX), false, 0, 0, 0);
        if :: lm_ok -> grant(h_src) :: else fi
     :: h_t == unlock ->
        if :: h_f & flag_ack_req -> send_ack(h_src) :: else fi;
        relq!h_src
     :: h_t == flush -> send_ack(h_src)
     :: h_t == accumulate || h_t == get ->
        if
        :: h_f & (flag_lock_shared | flag_lock_exclusive) ->
           /* try_grant, else the request waits holding this op */
           lm_request(h_src, ((h_f & flag_lock_shared) -> SH : EX), false, 0, 0, 0);
           if
           :: lm_ok -> execute_op(h_src, h_t, h_f, h_id)
           :: else -> hold_packet(h_src, h_t, h_f, h_id)
           fi
        :: else -> execute_op(h_src, h_t, h_f, h_id)
        fi
     fi
  fi;
  run_releases();
  h_t = 0; h_f = 0; h_id = 0; h_src = 0; lm_ok = false; h_w = false
}

active proctype target() {
end_target:
  do
  :: atomic { to_t[1]?h_t, h_f, h_id -> h_src = 1; handle_packet() }
  :: atomic { to_t[2]?h_t, h_f, h_id -> h_src = 2; handle_packet() }
  od
}

/* rank 0's application: lock its own window, apply one op there, unlock */
active proctype rank0() {
  byte tp;
  if :: tp = SH :: tp = EX fi;
  atomic { lm_request(0, tp, false, 0, 0, 0); self_held = lm_ok; lm_ok = false };
  self_held;
  atomic {
    applied_in_epoch = (hold[0] != 0);
    assert(applied_in_epoch);
    self_held = false;
    relq!0;
    run_releases()
  };
  fin[0] = true
}

/* --- ranks 1 and 2: origins ---------------------------------------------------------------- */

/* what comes back while a closing call waits (on_packet / on_response, origin side): an ack
 * or any reply while the request is outstanding is the grant */
inline recv() {
  atomic {
    to_o[o]?rt, rf, rid;
    if
    :: rt == lock_granted -> lock_st = L_GRANTED
    :: rt == ack ->
       if :: acks_pending > 0 -> acks_pending-- :: else fi;
       if :: lock_st == L_REQ && lock_op != 0 -> lock_st = L_GRANTED; lock_op = 0 :: else fi
    :: rt == get_resp ->
       if :: lock_st == L_REQ && lock_op != 0 -> lock_st = L_GRANTED; lock_op = 0 :: else fi;
       local_pending--
    fi;
    rt = 0; rf = 0; rid = 0
  }
}

/* AmWin::send_op for op x with flags fl */
inline send_op(x, fl) {
  sf = fl;
  if :: (sf & flag_unlock) && kind[x] != get -> sf = sf | flag_ack_req :: else fi;
  if :: (sf & flag_ack_req) && kind[x] == get -> sf = sf & ~flag_ack_req :: else fi;
  if :: sf & (flag_lock_shared | flag_lock_exclusive) -> lock_op = x + 1 :: else fi;
  if :: sf & flag_ack_req -> acks_pending++ :: else fi;
  if
  :: (sf & (flag_unlock | flag_ack_req)) || (kind[x] == get && (sf & flag_unlock)) -> unacked = 0
  :: else -> if :: kind[x] != get -> unacked++ :: else fi
  fi;
  /* an accumulate is locally complete once sent; a get when its reply is in */
  if :: kind[x] == get -> local_pending++ :: else fi;
  to_t[o]!kind[x], sf, x; msgs[o]++;
  sf = 0
}

/* AmWin::issue_batch: gets moved last (stable), the first op flagged bfirst, the last blast */
inline issue_batch() {
  j = 0;
#ifdef GET_NOT_LAST
  do :: j < qlen -> ord[j] = q[j]; j++ :: else -> break od;
#else
  n = 0;
  do :: j < qlen -> if :: kind[q[j]] != get -> ord[n] = q[j]; n++ :: else fi; j++ :: else -> break od;
  j = 0;
  do :: j < qlen -> if :: kind[q[j]] == get -> ord[n] = q[j]; n++ :: else fi; j++ :: else -> break od;
#endif
  j = 0;
  do
  :: j < qlen ->
     bf = 0;
     if :: j == 0 -> bf = bfirst :: else fi;
     if :: j == qlen - 1 -> bf = bf | blast :: else fi;
     send_op(ord[j], bf);
     j++
  :: else -> break
  od;
  qlen = 0; j = 0; n = 0; bf = 0; bfirst = 0; blast = 0
}

#ifdef DROP_UNLOCK   /* mutation: the last op of an unlock batch goes without the unlock flag */
#define UNLOCK_FLAGS flag_ack_req
#else
#define UNLOCK_FLAGS (flag_unlock | flag_ack_req)
#endif

/* AmWin::advance until done for closing mode md */
inline close(md) {
  phase = P_BEGIN;
  do
  :: atomic { phase == P_BEGIN && lock_st == L_GRANTED -> phase = P_READY }
  :: atomic { phase == P_BEGIN && lock_st == L_REQ -> phase = P_AWAIT }
  :: atomic { phase == P_BEGIN && lock_st == L_NONE && qlen == 0 -> phase = P_DONE }  /* costs nothing */
  :: atomic { phase == P_BEGIN && lock_st == L_NONE && qlen > 0 ->
     lock_st = L_REQ;
     if
     :: FITS(qbytes) ->
        /* held epoch: the whole batch goes, the first op carrying the lock request */
        bfirst = lockflag;
        if :: md == C_UNLOCK -> blast = UNLOCK_FLAGS :: else -> blast = flag_ack_req fi;
        issue_batch();
        phase = P_ISSUED
     :: else ->   /* asked epoch: the batch does not fit the budget */
        to_t[o]!lock, lockflag, 0; msgs[o]++;
        phase = P_AWAIT
     fi }
  :: atomic { phase == P_AWAIT && lock_st == L_GRANTED -> phase = P_READY }
  :: phase == P_AWAIT && lock_st != L_GRANTED -> recv()
  :: atomic { phase == P_READY ->
     if
     :: qlen > 0 ->
        if
        :: md == C_UNLOCK -> blast = UNLOCK_FLAGS
        :: md == C_FLUSH -> blast = flag_ack_req
        :: md == C_FLUSH_LOCAL -> blast = 0
        fi;
        issue_batch()
     :: qlen == 0 && md == C_UNLOCK ->  /* ask for an ack only if earlier ops went without */
        if
        :: unacked > 0 -> to_t[o]!unlock, flag_ack_req, 0; acks_pending++; unacked = 0
        :: else -> to_t[o]!unlock, 0, 0
        fi;
        msgs[o]++
     :: qlen == 0 && md == C_FLUSH && unacked > 0 ->
        to_t[o]!flush, flag_ack_req, 0; msgs[o]++; acks_pending++; unacked = 0
     :: else
     fi;
     phase = P_ISSUED }
  :: phase == P_ISSUED && (local_pending > 0 || (md != C_FLUSH_LOCAL && acks_pending > 0)) -> recv()
  :: atomic { phase == P_ISSUED && local_pending == 0 &&
              (md == C_FLUSH_LOCAL || acks_pending == 0) -> phase = P_DONE }
  :: atomic { phase == P_DONE ->
     if :: md == C_UNLOCK -> lock_st = L_NONE; lock_op = 0; unacked = 0 :: else fi;
     phase = 0 };
     break
  od
}

proctype origin(byte o) {
  byte lockflag, nops, mode, mode2, bf, bfirst, blast, j, n, sf, phase, lock_st, lock_op;
  byte local_pending, acks_pending, unacked, qlen, ngets, qbytes;
  byte q[NOPS], ord[NOPS];
  mtype kind[NOPS];
  mtype rt; byte rf, rid;

  /* the epoch's shape: lock type, ops in issue order, how it closes */
  atomic {
  if :: lockflag = flag_lock_shared :: lockflag = flag_lock_exclusive fi;
  if :: nops = 0 :: nops = 1 :: nops = 2 fi;
  do
  :: qlen < nops ->
     /* put travels and completes as accumulate does (no reply); accumulate also has
      * the ordering property, so it stands for both */
     if :: kind[qlen] = accumulate :: kind[qlen] = get fi;
     if :: kind[qlen] == get -> ngets++ :: else fi;
     qbytes = qbytes + OP_BYTES(kind[qlen], o);
     q[qlen] = qlen; qlen++
  :: else -> break
  od;
#ifdef MODE1   /* split the check: origin 1 closes one way per run, origin 2 every way */
  if
  :: o == 1 -> mode = MODE1
  :: else -> if :: mode = C_UNLOCK :: mode = C_FLUSH :: mode = C_FLUSH_LOCAL fi
  fi
#else
  if :: mode = C_UNLOCK :: mode = C_FLUSH :: mode = C_FLUSH_LOCAL fi
#endif
  };

  if :: mode != C_UNLOCK -> close(mode) :: else fi;
  mode2 = C_UNLOCK;  /* a variable: spin 6.5 crashes on a constant folded into ( -> : ) */
  close(mode2);

  atomic {
  j = 0;
  do
  :: j < nops -> unlock_complete = (applied[o * NOPS + j] == 1); assert(unlock_complete); j++
  :: else -> break
  od;
  /* lock..unlock as docs/message-counts.md says for fewest: 0 with no op; else its ops and
   * their replies, the ack when there is no get (gets go last), and lock + lock_granted
   * when the epoch asks first: exactly when its ops do not fit the budget */
#ifndef IGNORE_BUDGET   /* that mutation changes the cost by design; its target is the budget */
  if
  :: mode == C_UNLOCK ->
     message_count = (msgs[o] == ((nops == 0) -> 0 :
                                  (nops + ngets + ((ngets == 0) -> 1 : 0) +
                                   ((qbytes <= BUDGET) -> 0 : 2))));
     assert(message_count)
  :: else
  fi;
#endif
  fin[o] = true
  }
}

init {
  atomic { run origin(1); run origin(2) }
}
