/* fence.pml — fence epochs on the am path, protocol fewest (the default), as AmWin::fence,
 * fence_fewest, issue_fence_batch, send_note, on_fence_packet, take_note and
 * release_held_fence (rma_impl/am/am_fence.cpp) and complete_at_target (am_target.cpp) do it.
 *
 * Three ranks, two consecutive fence epochs (the opening fence sends nothing; then two closing
 * fences). In each epoch every rank queues 0..NOPS accumulates to each other rank (Spin
 * chooses), then closes the epoch: each target's ops go at once, every one flagged `fence`
 * with the epoch in seq, the last also `fence_last`; a target applies an op of an epoch it
 * has entered (it returned from the fence before) and holds it otherwise, applying it when
 * it returns from that fence. The counts travel by one of the two exchanges (-DROUNDS picks
 * `rounds`, else `messages`, which `auto` takes for 3 ranks):
 *   messages — ranks 1 and 2 tell rank 0 their targets (a contribution note, on the last op
 *              to rank 0 if it goes now, else on a bare fence_count); rank 0, once it has
 *              both, sends each rank its total (on its last op to it, or a bare fence_count);
 *              rank 0's ops wait for that moment;
 *   rounds   — every rank tells every other directly: its last op (fence_last) or a
 *              `nothing` note.
 * Over the hold budget an origin does not send ahead: messages — it sends when its own
 * total has come; rounds — it sends an `enter` note, and the batch once a packet of this
 * epoch came from the target. Sizes as queue_bytes counts them: a 48-byte header plus 8
 * bytes of data per op from ranks 0 and 1, 64 from rank 2; BUDGET = 120: rank 2's two-op
 * batches (224) ask, every other batch goes ahead.
 * Notes are modelled as one kind and one byte (a contribution's targets as a bit mask).
 * The transport: one ordered reliable channel per direction per pair.
 *
 * Properties (assertions):
 *   in_epoch        an op is applied at its target only inside its fence epoch: never
 *                   before the target entered it (returned from the fence before), never
 *                   after it left it
 *   applied_once    every op applied at most once, and (fence_complete) at least once
 *   fence_complete  the closing fence returns only when every op sent to the rank in the
 *                   epoch has been applied
 *   one_ahead       a held op belongs to the epoch right after the target's
 *   held_within_budget  the bytes a target holds for one origin never exceed BUDGET
 *   message_count   each epoch costs its ops plus the fence_count notes counts.lua's
 *                   counts.fence says (per origin-target pair: over the budget or not)
 *   invalid end states (deadlock), and the LTL property epochs_complete.
 * Mutations (-D): FENCE_COUNT_TWICE (a fence_last op counted twice at its target),
 * APPLY_EARLY (RMA_FAULT=held_op_early: an op of an epoch the target has not entered applied
 * at arrival), DROP_FENCE_LAST (the last op of a batch goes without fence_last),
 * IGNORE_BUDGET (every batch goes ahead whatever its size), CONTRIB_ALONE (a contribution
 * always goes on a bare fence_count: correct, but one message more than counts.lua says). */

#include "../packet.pml"

#define NR 3
#define NOPS 2
#define NEP 2           /* closing fences */
#define CAP 6           /* per pair: an epoch's note and two ops, and the next epoch's */
#define ROOT 0

#define HDR 48
#define OP_BYTES(o) (((o) == 2) -> (HDR + 64) : (HDR + 8))
#ifndef BUDGET
#define BUDGET 120
#endif
#ifdef IGNORE_BUDGET
#define FITS(o, n) true
#else
#define FITS(o, n) ((n) * OP_BYTES(o) <= BUDGET)
#endif

/* note kinds (FenceNote) */
#define N_NONE 0
#define N_CONTRIB 1
#define N_TOTAL 2
#define N_NOTHING 3
#define N_ENTER 4

/* ch[from * NR + to]: type, flags, seq (epoch), note kind, note value */
chan ch[NR * NR] = [CAP] of { mtype, short, byte, byte, byte };

byte ep[NR];                /* fence_epoch_: the epoch the rank is in (1, 2; 3 when done) */

/* FenceIn of rank r for epoch e, at [r * NEP + e - 1]; erased when r leaves fence e */
byte f_completed[NR * NEP];
byte f_nothing[NR * NEP];
byte f_total[NR * NEP];
bool f_has_total[NR * NEP];
byte f_heard[NR * NEP];     /* rounds: bit s set once a packet of the epoch came from s */
byte f_contrib[NEP];        /* rank 0's contributions received */
byte f_totals[NEP * NR];    /* rank 0's totals per rank */

/* held_fence_ at rank t for origin o, at [t * NR + o]: its ops of the next epoch, in order;
 * whether the last of them carries fence_last */
byte held_n[NR * NR];
bool held_last[NR * NR];

/* ghosts, at [(e - 1) * NR * NR + o * NR + t] */
byte sent[NEP * NR * NR];       /* ops o queued for t in epoch e */
byte applied[NEP * NR * NR];    /* of them applied at t */
short msg_diff[NEP];            /* packets of epoch e sent minus what counts.fence says */
byte left[NEP];                 /* ranks that returned from fence e */
bool fin[NR];

hidden byte in_epoch, applied_once, fence_complete, one_ahead, held_within_budget;
hidden byte message_count;
hidden byte g_i, g_o;

ltl epochs_complete { <> (fin[0] && fin[1] && fin[2]) }

#define FI(r, e) ((r) * NEP + (e) - 1)
#define GI(e, o, t) (((e) - 1) * NR * NR + (o) * NR + (t))

/* complete_at_target, for an op of epoch e from o applied at t */
inline apply(at, ao, ae, af) {
  in_epoch = (ep[at] == ae);
  assert(in_epoch);
  applied_once = (applied[GI(ae, ao, at)] < sent[GI(ae, ao, at)]);
  assert(applied_once);
  applied[GI(ae, ao, at)]++;
  if
  :: af & flag_fence_last ->
     f_completed[FI(at, ae)]++;
#ifdef FENCE_COUNT_TWICE
     f_completed[FI(at, ae)]++
#else
     skip
#endif
  :: else
  fi
}

/* take_note at rank t from s for epoch e */
inline take_note(tt, ts, te, tk, tv) {
  if
  :: tk == N_CONTRIB && tt == ROOT ->
     f_contrib[te - 1]++;
     g_i = 0;
     do
     :: g_i < NR -> if :: tv & (1 << g_i) -> f_totals[(te - 1) * NR + g_i]++ :: else fi; g_i++
     :: else -> break
     od;
     g_i = 0
  :: tk == N_TOTAL && ts == ROOT -> f_total[FI(tt, te)] = tv; f_has_total[FI(tt, te)] = true
  :: tk == N_NOTHING -> f_nothing[FI(tt, te)]++
  :: else   /* enter (being heard from is all it says), or no note */
  fi
}

/* on_fence_packet at rank t from s */
inline on_packet(pt, ps, pk, pf, pe, pn, pv) {
#ifdef ROUNDS
  f_heard[FI(pt, pe)] = f_heard[FI(pt, pe)] | (1 << ps);
#endif
  take_note(pt, ps, pe, pn, pv);
  if
  :: pk == accumulate ->
#ifdef APPLY_EARLY
     if :: true ->
#else
     if
     :: pe > ep[pt] ->   /* an epoch pt has not entered: held until it returns from its fence */
        one_ahead = (pe == ep[pt] + 1);
        assert(one_ahead);
        held_n[pt * NR + ps]++;
        held_last[pt * NR + ps] = ((pf & flag_fence_last) != 0);
        held_within_budget = (held_n[pt * NR + ps] * OP_BYTES(ps) <= BUDGET);
        assert(held_within_budget)
     :: else ->
#endif
        apply(pt, ps, pe, pf)
     fi
  :: else
  fi
}

/* issue_fence_batch: rank me's n ops to t, the last flagged fence_last and carrying the note */
#ifdef DROP_FENCE_LAST
#define LAST_FLAG 0
#else
#define LAST_FLAG flag_fence_last
#endif
inline issue_batch(bt, bn, bk, bv) {
  g_o = 0;
  do
  :: g_o + 1 < bn -> ch[me * NR + bt]!accumulate, flag_fence, ep[me], N_NONE, 0; g_o++
  :: g_o + 1 == bn -> ch[me * NR + bt]!accumulate, flag_fence | LAST_FLAG, ep[me], bk, bv; break
  od;
  g_o = 0;
  msg_diff[ep[me] - 1] = msg_diff[ep[me] - 1] + bn
}

inline send_note(st, sk, sv) {
  ch[me * NR + st]!fence_count, flag_fence, ep[me], sk, sv;
  msg_diff[ep[me] - 1]++
}

proctype rank(byte me) {
  byte t, n0, n1, n2, contrib, deferred, e, nb;
  bool carried, scattered;
  mtype rk; short rf; byte re, rn, rv;

#define NOPS_TO(x) (((x) == 0) -> n0 : (((x) == 1) -> n1 : n2))
#define HAS_OPS(x) ((x) != me && NOPS_TO(x) > 0)

/* handle one packet from src (the engine lock: one atomic step) */
#define PROGRESS_FROM(src) \
  atomic { ch[(src) * NR + me]?rk, rf, re, rn, rv -> \
    on_packet(me, src, rk, rf, re, rn, rv); \
    rk = 0; rf = 0; re = 0; rn = 0; rv = 0 }

  ep[me] = 1;
  do
  :: ep[me] <= NEP ->
     /* the epoch's ops; what counts.fence says the epoch costs is subtracted now */
     atomic {
       if :: n0 = 0 :: n0 = 1 :: n0 = 2 fi;
       if :: n1 = 0 :: n1 = 1 :: n1 = 2 fi;
       if :: n2 = 0 :: n2 = 1 :: n2 = 2 fi;
       if :: me == 0 -> n0 = 0 :: me == 1 -> n1 = 0 :: else -> n2 = 0 fi;
       e = ep[me];
       t = 0;
       do
       :: t < NR ->
          sent[GI(e, me, t)] = NOPS_TO(t);
          msg_diff[e - 1] = msg_diff[e - 1] - NOPS_TO(t);
          if :: HAS_OPS(t) -> contrib = contrib | (1 << t) :: else fi;
#ifdef ROUNDS
          /* n(n-1) marks, less the pairs whose last op carries it, plus an enter note for
           * each pair over the budget */
          if
          :: t != me && (NOPS_TO(t) == 0 || !FITS(me, NOPS_TO(t))) -> msg_diff[e - 1]--
          :: else
          fi;
#else
          /* 2(n-1) notes, less a contribution riding on an op to rank 0 sent at once, less
           * a total riding on rank 0's op */
          if
          :: me != ROOT && t == ROOT && HAS_OPS(t) && FITS(me, NOPS_TO(t)) -> msg_diff[e - 1]++
          :: me == ROOT && HAS_OPS(t) -> msg_diff[e - 1]++
          :: else
          fi;
#endif
          t++
       :: else -> break
       od;
#ifndef ROUNDS
       if :: me != ROOT -> msg_diff[e - 1] = msg_diff[e - 1] - 2 :: else fi;
#endif
       /* fence_fewest: what goes at once */
       t = 0;
       do
       :: t < NR ->
#ifdef ROUNDS
          if
          :: t == me
          :: t != me && NOPS_TO(t) == 0 -> send_note(t, N_NOTHING, 0)
          :: t != me && NOPS_TO(t) > 0 && !FITS(me, NOPS_TO(t)) ->
             deferred = deferred | (1 << t); send_note(t, N_ENTER, 0)
          :: t != me && NOPS_TO(t) > 0 && FITS(me, NOPS_TO(t)) -> nb = NOPS_TO(t); issue_batch(t, nb, N_NONE, 0)
          fi;
#else
          if
          :: me != ROOT && HAS_OPS(t) && !FITS(me, NOPS_TO(t)) -> deferred = deferred | (1 << t)
          :: me != ROOT && HAS_OPS(t) && FITS(me, NOPS_TO(t)) ->
             if
#ifdef CONTRIB_ALONE   /* mutation: the contribution never rides on the op to rank 0 */
             :: t == ROOT -> nb = NOPS_TO(t); issue_batch(t, nb, N_NONE, 0)
#else
             :: t == ROOT -> nb = NOPS_TO(t); issue_batch(t, nb, N_CONTRIB, contrib); carried = true
#endif
             :: else -> nb = NOPS_TO(t); issue_batch(t, nb, N_NONE, 0)
             fi
          :: else
          fi;
#endif
          t++
       :: else -> break
       od;
#ifndef ROUNDS
       if :: me != ROOT && !carried -> send_note(ROOT, N_CONTRIB, contrib) :: else fi;
#endif
       t = 0; carried = false
     };

     /* wait_for: counts, ops sent and each origin's last op */
     do
#ifndef ROUNDS
     :: atomic { me == ROOT && !scattered && f_contrib[e - 1] == NR - 1 ->
        f_totals[(e - 1) * NR + 1] = f_totals[(e - 1) * NR + 1] + ((contrib >> 1) & 1);
        f_totals[(e - 1) * NR + 2] = f_totals[(e - 1) * NR + 2] + ((contrib >> 2) & 1);
        t = 1;
        do
        :: t < NR ->
           if
           :: HAS_OPS(t) -> nb = NOPS_TO(t); issue_batch(t, nb, N_TOTAL, f_totals[(e - 1) * NR + t])
           :: else -> send_note(t, N_TOTAL, f_totals[(e - 1) * NR + t])
           fi;
           t++
        :: else -> break
        od;
        t = 0;
        f_total[FI(me, e)] = f_totals[(e - 1) * NR];
        f_has_total[FI(me, e)] = true;
        scattered = true }
     :: atomic { deferred != 0 && f_has_total[FI(me, e)] ->
        t = 0;
        do
        :: t < NR -> if :: deferred & (1 << t) -> nb = NOPS_TO(t); issue_batch(t, nb, N_NONE, 0) :: else fi; t++
        :: else -> break
        od;
        t = 0; deferred = 0 }
     :: atomic { deferred == 0 && f_has_total[FI(me, e)] &&
                 f_completed[FI(me, e)] >= f_total[FI(me, e)] -> break }
#else
     :: atomic { (deferred & f_heard[FI(me, e)]) != 0 ->
        t = 0;
        do
        :: t < NR ->
           if
           :: deferred & f_heard[FI(me, e)] & (1 << t) ->
              nb = NOPS_TO(t); issue_batch(t, nb, N_NONE, 0); deferred = deferred & ~(1 << t)
           :: else
           fi;
           t++
        :: else -> break
        od;
        t = 0 }
     :: atomic { deferred == 0 && f_completed[FI(me, e)] + f_nothing[FI(me, e)] >= NR - 1 -> break }
#endif
     :: PROGRESS_FROM((me + 1) % NR)
     :: PROGRESS_FROM((me + 2) % NR)
     od;

     /* the fence returns: this rank is in the next epoch; what came for it applies */
     atomic {
       t = 0;
       do
       :: t < NR ->
          fence_complete = (applied[GI(e, t, me)] == sent[GI(e, t, me)]);
          assert(fence_complete);
          applied[GI(e, t, me)] = 0; sent[GI(e, t, me)] = 0;
          t++
       :: else -> break
       od;
       f_completed[FI(me, e)] = 0; f_nothing[FI(me, e)] = 0; f_total[FI(me, e)] = 0;
       f_has_total[FI(me, e)] = false; f_heard[FI(me, e)] = 0;
       if
       :: me == ROOT ->
          f_contrib[e - 1] = 0;
          f_totals[(e - 1) * NR] = 0; f_totals[(e - 1) * NR + 1] = 0; f_totals[(e - 1) * NR + 2] = 0
       :: else
       fi;
       left[e - 1]++;
       if
       :: left[e - 1] == NR ->   /* every rank is out: epoch e sent all it will */
          message_count = (msg_diff[e - 1] == 0);
          assert(message_count);
          msg_diff[e - 1] = 0; left[e - 1] = 0
       :: else
       fi;
       ep[me]++;
       /* release_held_fence */
       t = 0;
       do
       :: t < NR ->
          do
          :: held_n[me * NR + t] > 1 -> apply(me, t, ep[me], 0); held_n[me * NR + t]--
          :: held_n[me * NR + t] == 1 ->
             if :: held_last[me * NR + t] -> rf = flag_fence_last :: else -> rf = 0 fi;
             apply(me, t, ep[me], rf);
             held_n[me * NR + t] = 0; held_last[me * NR + t] = false; rf = 0
          :: held_n[me * NR + t] == 0 -> break
          od;
          t++
       :: else -> break
       od;
       t = 0; nb = 0; n0 = 0; n1 = 0; n2 = 0; contrib = 0; scattered = false; e = 0
     }
  :: else -> break
  od;
  fin[me] = true;
  /* nothing is still in flight to a rank that has returned from its last fence; the loop
   * would take it */
end_rank:
  do
  :: PROGRESS_FROM((me + 1) % NR)
  :: PROGRESS_FROM((me + 2) % NR)
  od
}

init {
  atomic { run rank(0); run rank(1); run rank(2) }
}
