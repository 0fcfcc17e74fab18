/* fence.pml — a fence epoch on the am path (AmWin::fence and exchange_counts in
 * rma_impl/am/am_origin.cpp, complete_at_target in am_target.cpp), for 3 ranks.
 *
 * Every rank queues 0..NOPS accumulates to each other rank (nondeterministically), then
 * closes the epoch: the reduce-scatter of 0/1 origin counts by recursive halving over p = 2
 * ranks with rank 0 folded into rank 1 (n = 3: fold 0->1, exchange 1<->2, return 1->0, as
 * the code computes it for n = 3), then the queued ops with fence_last on the last op to
 * each target, then waiting until as many fence_last ops as its count said have completed.
 * The transport: one ordered reliable channel per direction per pair.
 *
 * Properties: fence_complete (when a rank leaves the fence, every op sent to it in the epoch
 * has been applied), invalid end states (deadlock), LTL epochs_complete.
 * Mutation (-D): FENCE_COUNT_TWICE (a fence_last op counted twice at its target). */

#include "../packet.pml"

#define NR 3
#define NOPS 2
#define CAP 4

/* ch[from * NR + to]: type, flags, op id or count-exchange step, two counts */
chan ch[NR * NR] = [CAP] of { mtype, byte, byte, byte, byte };

byte nops_to[NR * NR];     /* ghost: ops rank f queued for rank t */
byte applied_to[NR];       /* ghost: ops applied at rank t */
bool fin[NR];
hidden byte fence_complete;

ltl epochs_complete { <> (fin[0] && fin[1] && fin[2]) }

#define FOLD 0
#define RETURN 99

proctype rank(byte me) {
  byte t, k, origins, completed, s, c0, c1;
  byte counts[NR];
  bool have[NR];           /* a fence_count from that rank is in (one per pair for n = 3) */
  byte in0[NR], in1[NR];
  mtype rt; byte rf, ra, rb, rc;

  /* the epoch's ops */
  atomic {
    t = 0;
    do
    :: t < NR ->
       if
       :: t != me -> if :: nops_to[me * NR + t] = 0 :: nops_to[me * NR + t] = 1
                        :: nops_to[me * NR + t] = 2 fi;
          counts[t] = (nops_to[me * NR + t] > 0 -> 1 : 0)
       :: else
       fi;
       t++
    :: else -> break
    od;
    t = 0
  };

#define PROGRESS_FROM(src) \
  atomic { ch[(src) * NR + me]?rt, rf, ra, rb, rc -> \
    if \
    :: rt == fence_count -> have[src] = true; in0[src] = rb; in1[src] = rc \
    :: rt == accumulate -> \
       applied_to[me]++; \
       if :: rf & flag_fence_last -> completed++ :: else fi; \
       FENCE_TWICE \
    fi; \
    rt = 0; rf = 0; ra = 0; rb = 0; rc = 0 }

#ifdef FENCE_COUNT_TWICE
#define FENCE_TWICE if :: rf & flag_fence_last -> completed++ :: else fi
#else
#define FENCE_TWICE skip
#endif

/* wait_for(cond), handling packets from the two other ranks meanwhile */
#define WAIT_FOR(cond) \
  do \
  :: cond -> break \
  :: PROGRESS_FROM((me + 1) % NR) \
  :: PROGRESS_FROM((me + 2) % NR) \
  od

  /* exchange_counts, n = 3: p = 2, rem = 1 */
  if
  :: me == 0 ->
     ch[0 * NR + 1]!fence_count, 0, FOLD, counts[1], counts[2];   /* counts[0..2]; 0's own is 0 */
     WAIT_FOR(have[1]);
     origins = in0[1]
  :: me == 1 ->
     WAIT_FOR(have[0]);
     have[0] = false;
     counts[1] = counts[1] + in0[0]; counts[2] = counts[2] + in1[0];
     /* counts[0] (rank 0's count of origins) folds nothing from rank 0 itself */
     ch[1 * NR + 2]!fence_count, 0, 1, counts[2], 0;
     WAIT_FOR(have[2]);
     counts[0] = counts[0] + in0[2]; counts[1] = counts[1] + in1[2];
     origins = counts[1];
     ch[1 * NR + 0]!fence_count, 0, RETURN, counts[0], 0
  :: me == 2 ->
     ch[2 * NR + 1]!fence_count, 0, 1, counts[0], counts[1];
     WAIT_FOR(have[1]);
     counts[2] = counts[2] + in0[1];
     origins = counts[2]
  fi;

  /* the queued ops, the last to each target flagged fence_last */
  atomic {
    t = 0;
    do
    :: t < NR ->
       k = 0;
       do
       :: t != me && k < nops_to[me * NR + t] ->
          ch[me * NR + t]!accumulate, ((k == nops_to[me * NR + t] - 1) -> flag_fence_last : 0), k, 0, 0;
          k++
       :: else -> break
       od;
       t++
    :: else -> break
    od;
    t = 0; k = 0
  };

  WAIT_FOR(completed >= origins);
  atomic {
    fence_complete = (applied_to[me] == nops_to[((me + 1) % NR) * NR + me] +
                                        nops_to[((me + 2) % NR) * NR + me]);
    assert(fence_complete);
    fin[me] = true
  };
  /* packets still in flight to this rank are handled by its next calls */
end_rank:
  do
  :: PROGRESS_FROM((me + 1) % NR)
  :: PROGRESS_FROM((me + 2) % NR)
  od
}

init {
  atomic { run rank(0); run rank(1); run rank(2) }
}
