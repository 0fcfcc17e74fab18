/* lock_manager.pml — the target's lock manager (rma_impl/am/lock_manager.cpp) for one window,
 * shared by both protocols' models: holders, and a FIFO of waiting requests, each possibly
 * holding the op that came with it (ch3; fewest/passive.pml keeps its longer held lists per
 * origin itself, an origin having at most one request waiting).
 * Grant rule: compatible with the holders (shared with shared, exclusive with nothing) and
 * nobody waiting before. A release grants the FIFO's head: one exclusive request, or every
 * shared request at the head. Ghost checks here: mutual exclusion and no overtaking. */

#define SH 1
#define EX 2

#ifdef GRANT_IGNORES_TABLE      /* RMA_FAULT=grant_ignores_table */
#define GIT 1
#else
#define GIT 0
#endif
#ifdef SHARED_OVERTAKES         /* mutation: the grant rule forgets "nobody waiting before" */
#define OVERTAKE 1
#else
#define OVERTAKE 0
#endif

byte hold[NR];                  /* holder type per rank, 0: not a holder */
byte nsh, nex;                  /* shared / exclusive holders */
byte wq_len;                    /* the FIFO, index 0 its head */
byte wq_o[NR], wq_t[NR], wq_tk[NR];
mtype wq_k[NR];                 /* the held op, if any: type, flags, op id */
byte wq_f[NR], wq_id[NR];
bool wq_op[NR];
byte tick;                      /* ghost: arrival ticket of a request */

hidden byte lm_i;
hidden byte mutual_exclusion, no_overtaking;

#define COMPAT(tp) (nsh + nex == 0 || GIT || ((tp) == SH && nex == 0))
#define NOBODY_WAITS (wq_len == 0 || GIT || OVERTAKE)

inline add_holder(o, tp, tk) {
  hold[o] = tp;
  if :: tp == SH -> nsh++ :: else -> nex++ fi;
  mutual_exclusion = (nex <= 1 && (nex == 0 || nsh == 0));
  assert(mutual_exclusion);
  /* a shared grant never passes an exclusive request that arrived before it */
  if
  :: tp == SH ->
     lm_i = 0;
     do
     :: lm_i < wq_len ->
        no_overtaking = !(wq_t[lm_i] == EX && wq_tk[lm_i] < tk);
        assert(no_overtaking);
        lm_i++
     :: else -> break
     od
  :: else
  fi;
  lm_i = 0
}

/* LockManager::request / try_grant: granted now (lm_ok) or queued (with its op if has_op) */
inline lm_request(o, tp, has_op, k, f, id) {
  tick++;
  if
  :: NOBODY_WAITS && COMPAT(tp) -> add_holder(o, tp, tick); lm_ok = true
  :: else ->
     lm_ok = false;
     wq_o[wq_len] = o; wq_t[wq_len] = tp; wq_tk[wq_len] = tick;
     wq_op[wq_len] = has_op; wq_k[wq_len] = k; wq_f[wq_len] = f; wq_id[wq_len] = id;
     wq_len++
  fi
}

/* pop the FIFO's head into lm_g* */
inline lm_pop() {
  lm_go = wq_o[0]; lm_gt = wq_t[0]; lm_gtk = wq_tk[0];
  lm_gop = wq_op[0]; lm_gk = wq_k[0]; lm_gf = wq_f[0]; lm_gid = wq_id[0];
  lm_i = 1;
  do
  :: lm_i < wq_len ->
     wq_o[lm_i-1] = wq_o[lm_i]; wq_t[lm_i-1] = wq_t[lm_i]; wq_tk[lm_i-1] = wq_tk[lm_i];
     wq_op[lm_i-1] = wq_op[lm_i]; wq_k[lm_i-1] = wq_k[lm_i]; wq_f[lm_i-1] = wq_f[lm_i];
     wq_id[lm_i-1] = wq_id[lm_i];
     lm_i++
  :: else -> break
  od;
  wq_len--;
  wq_o[wq_len] = 0; wq_t[wq_len] = 0; wq_tk[wq_len] = 0; wq_op[wq_len] = false;
  wq_k[wq_len] = 0; wq_f[wq_len] = 0; wq_id[wq_len] = 0;
  lm_i = 0
}

inline drop_holder(o) {
  if :: hold[o] == SH -> nsh-- :: else -> nex-- fi;
  hold[o] = 0
}
