/* passive.pml — passive-target epochs on the am path, protocol ch3 (today's: ops wait at
 * the origin for the grant), as rma_impl/am/am_origin.cpp and am_target.cpp do them.
 *
 * Three ranks. Rank 0 is the target: its progress (the `target` process, one atomic step
 * per packet, as under the engine lock) and its application thread, which locks its own
 * window (taken at the call, no message) and applies one op there. Ranks 1 and 2 are
 * origins: each makes one epoch to rank 0 of a nondeterministic shape — shared or
 * exclusive, 0..NOPS ops each a put, an accumulate or a get (get stands for every op with
 * a reply), closed by unlock, by flush then unlock, or by flush_local then unlock.
 * The transport: one ordered reliable channel per direction per pair.
 *
 * Properties (assertions name the property they check; see check.py):
 *   mutual_exclusion   no two exclusive holders, no exclusive with a shared holder
 *   no_overtaking      a shared request never granted before a waiting exclusive one
 *   applied_in_epoch   an op is applied at the target only while its origin holds the lock
 *   applied_once       every op applied at most once, and (unlock_complete) at least once
 *   acc_order          accumulates from one origin applied in issue order
 *   unlock_complete    when unlock returns, every op of the epoch has been applied
 *   message_count      lock..unlock costs what docs/message-counts.md says
 *   invalid end states (deadlock), and the LTL property epochs_complete under weak fairness.
 *
 * Mutations (-D): GRANT_IGNORES_TABLE, NO_SINGLETON, GET_NOT_LAST, DROP_ACK (the faults of
 * RMA_FAULT, rma_impl/core/fault.hpp), SHARED_OVERTAKES, APPLY_BEFORE_GRANT, DROP_UNLOCK. */

#include "../packet.pml"

#define NR 3            /* ranks */
#define NOPS 2          /* most ops per epoch */
#define CAP 4           /* channel capacity: more than a pair ever has in flight */

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

#ifdef NO_SINGLETON
#define SINGLETON 0
#else
#define SINGLETON 1
#endif

chan to_t[NR] = [CAP] of { mtype, byte, byte };  /* origin o -> rank 0: type, flags, op id */
chan to_o[NR] = [CAP] of { mtype, byte, byte };  /* rank 0 -> origin o */
chan relq = [NR] of { byte };                    /* releases still to run (AmWin::release) */

/* ghosts */
byte applied[NR * NOPS];    /* how often op k of origin o was applied */
byte last_acc[NR];          /* 1 + index of o's last accumulate applied */
byte msgs[NR];              /* packets between o and rank 0 in o's epoch */
bool fin[NR];               /* the rank's epoch completed */
bool self_held;             /* rank 0 holds the lock on its own window (self_lock_held_) */

hidden mtype h_t, lm_gk;
hidden byte h_f, h_id, h_src, h_rel, lm_go, lm_gt, lm_gtk, lm_gf, lm_gid;
hidden byte lm_ok, lm_gop;
hidden byte applied_in_epoch, applied_once, acc_order, unlock_complete, message_count;

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

/* AmWin::grant: rank 0's own request, a request that came with an op, or a bare lock */
inline grant(g, gop, k, f, id) {
  if
  :: g == 0 -> self_held = true
  :: g != 0 && gop -> execute_op(g, k, f, id)
  :: g != 0 && !gop -> to_o[g]!lock_granted, 0, 0; msgs[g]++
  fi
}

/* AmWin::release, for every release queued (a granted op carrying the unlock queues one) */
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
           grant(lm_go, lm_gop, lm_gk, lm_gf, lm_gid);
           if :: lm_gt == EX -> break :: else fi
        :: else -> break
        od
     :: else
     fi
  :: empty(relq) -> break
  od;
  h_rel = 0; lm_go = 0; lm_gt = 0; lm_gtk = 0; lm_gop = false; lm_gk = 0; lm_gf = 0; lm_gid = 0
}

inline handle_packet() {
  if
  :: h_t == lock ->
     lm_request(h_src, ((h_f & flag_lock_shared) -> SH : EX), false, 0, 0, 0);
     if :: lm_ok -> grant(h_src, false, 0, 0, 0) :: else fi
  :: h_t == unlock ->
     if :: h_f & flag_ack_req -> send_ack(h_src) :: else fi;
     relq!h_src
  :: h_t == flush -> send_ack(h_src)
  :: h_t == put || h_t == accumulate || h_t == get ->
     if
     :: h_f & (flag_lock_shared | flag_lock_exclusive) ->
        lm_request(h_src, ((h_f & flag_lock_shared) -> SH : EX), true, h_t, h_f, h_id);
        if
        :: lm_ok -> execute_op(h_src, h_t, h_f, h_id)
#ifdef APPLY_BEFORE_GRANT   /* mutation: the op is applied although its lock is not granted */
        :: !lm_ok -> execute_op(h_src, h_t, h_f, h_id)
#else
        :: else
#endif
        fi
     :: else -> execute_op(h_src, h_t, h_f, h_id)
     fi
  fi;
  run_releases();
  h_t = 0; h_f = 0; h_id = 0; h_src = 0; lm_ok = false
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

/* what comes back while a closing call waits (on_packet / on_response, origin side) */
inline recv() {
  atomic {
    to_o[o]?rt, rf, rid;
    if
    :: rt == lock_granted -> lock_st = L_GRANTED
    :: rt == ack ->
       if :: acks_pending > 0 -> acks_pending-- :: else fi;
       if :: lock_st == L_REQ && lock_op != 0 -> lock_st = L_GRANTED; lock_op = 0 :: else fi
    :: rt == get_resp ->
       if :: lock_st == L_REQ && lock_op == rid + 1 -> lock_st = L_GRANTED; lock_op = 0 :: else fi;
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
  /* a put or accumulate is locally complete once sent; a get when its reply is in */
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
     :: SINGLETON && qlen == 1 ->  /* the op carries the lock; its reply or ack grants */
        bfirst = lockflag;
        if :: md == C_UNLOCK -> blast = UNLOCK_FLAGS :: else -> blast = flag_ack_req fi;
        issue_batch();
        phase = P_ISSUED
     :: else ->
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
  byte local_pending, acks_pending, unacked, qlen, ngets;
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
  /* lock..unlock: 0 with no op, 2 for one op, else lock + grant + ops + replies (+ ack when
   * the last op has no reply; gets go last, so only when there is no get) */
  if
  :: mode == C_UNLOCK ->
     message_count = (msgs[o] == ((nops == 0) -> 0 : ((nops == 1) -> 2 :
                                  2 + nops + ngets + ((ngets == 0) -> 1 : 0))));
     assert(message_count)
  :: else
  fi;
  fin[o] = true
  }
}

init {
  atomic { run origin(1); run origin(2) }
}
