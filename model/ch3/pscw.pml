/* pscw.pml — post/start/complete/wait on the am path (AmWin::post, complete, wait in
 * rma_impl/am/am_origin.cpp; flags taking effect in complete_at_target), for 3 ranks and
 * ROUNDS epochs: rank 0 posts to ranks 1 and 2 and waits; each origin starts, queues 0..NOPS
 * ops (accumulate or get) to rank 0 and completes: it waits for a post it has not consumed,
 * sends its queue with done on the last op (or a bare done) and waits for local completion.
 *
 * Properties: exposed (an op is applied at rank 0 only inside an exposure epoch it opened
 * for this round), wait_complete (wait returns only once every op of the round is applied),
 * invalid end states, LTL epochs_complete.
 * Mutation (-D): DONE_ON_FIRST (done travels on the first op of the batch, not the last). */

#include "../packet.pml"

#define NR 3
#define NOPS 2
#define ROUNDS 2
#define CAP 4

#ifdef DONE_ON_FIRST
#define DONE_FLAG ((sc == 0) -> flag_done : 0)
#else
#define DONE_FLAG ((sc == nops - 1) -> flag_done : 0)
#endif

chan to_t[NR] = [CAP] of { mtype, byte, byte };   /* origin o -> rank 0: type, flags, round */
chan to_o[NR] = [CAP] of { mtype, byte, byte };   /* rank 0 -> origin o */

byte exposure;           /* ghost: round + 1 of rank 0's open exposure epoch, 0: none */
byte sent_ops[ROUNDS];   /* ghost: ops the origins queued in each round */
byte applied[ROUNDS];    /* ghost: ops applied in each round */
bool fin[NR];
hidden byte exposed, wait_complete;
hidden mtype h_t;
hidden byte h_f, h_r, h_src;

ltl epochs_complete { <> (fin[0] && fin[1] && fin[2]) }

inline handle_at_target() {
  if
  :: h_t == done -> done_received++
  :: h_t == accumulate || h_t == get ->
     exposed = (exposure == h_r + 1);
     assert(exposed);
     applied[h_r]++;
     if :: h_t == get -> to_o[h_src]!get_resp, 0, h_r :: else fi;
     if :: h_f & flag_done -> done_received++ :: else fi
  fi;
  h_t = 0; h_f = 0; h_r = 0; h_src = 0
}

active proctype target() {
  byte round, done_received;
  do
  :: round < ROUNDS ->
     atomic { exposure = round + 1; to_o[1]!post, 0, round; to_o[2]!post, 0, round };
     do
     :: done_received >= 2 -> break
     :: atomic { to_t[1]?h_t, h_f, h_r -> h_src = 1; handle_at_target() }
     :: atomic { to_t[2]?h_t, h_f, h_r -> h_src = 2; handle_at_target() }
     od;
     atomic {
       wait_complete = (applied[round] == sent_ops[round]);
       assert(wait_complete);
       done_received = done_received - 2;
       exposure = 0;
       round++
     }
  :: else -> break
  od;
  fin[0] = true
}

proctype origin(byte o) {
  byte round, nops, k, sc, posts_received, posts_consumed, local_pending, ngets;
  mtype kind[NOPS];
  mtype rt; byte rf, rr;
  do
  :: round < ROUNDS ->
     atomic {
       if :: nops = 0 :: nops = 1 :: nops = 2 fi;
       k = 0;
       do
       :: k < nops -> if :: kind[k] = accumulate :: kind[k] = get fi; k++
       :: else -> break
       od;
       sent_ops[round] = sent_ops[round] + nops;
       k = 0
     };
     /* complete: a post not consumed yet, then the batch (gets last), done on its last op */
     do
     :: posts_received > posts_consumed -> break
     :: atomic { to_o[o]?rt, rf, rr -> if :: rt == post -> posts_received++
                                          :: rt == get_resp -> local_pending-- fi;
                 rt = 0; rf = 0; rr = 0 }
     od;
     atomic {
       posts_consumed++;
       if
       :: nops == 0 -> to_t[o]!done, 0, round
       :: nops > 0 ->
          k = 0;
          ngets = 0;
          do   /* non-gets first, then gets: the batch's order */
          :: k < nops && kind[k] != get -> to_t[o]!kind[k], DONE_FLAG, round; sc++; k++
          :: k < nops && kind[k] == get -> ngets++; k++
          :: k == nops -> break
          od;
          k = 0;
          do
          :: k < nops && kind[k] == get -> local_pending++; to_t[o]!get, DONE_FLAG, round; sc++; k++
          :: k < nops && kind[k] != get -> k++
          :: k == nops -> break
          od
       fi;
       k = 0; sc = 0
     };
     do
     :: local_pending == 0 -> break
     :: atomic { to_o[o]?rt, rf, rr -> if :: rt == post -> posts_received++
                                          :: rt == get_resp -> local_pending-- fi;
                 rt = 0; rf = 0; rr = 0 }
     od;
     round++
  :: else -> break
  od;
  fin[o] = true
}

init {
  atomic { run origin(1); run origin(2) }
}
