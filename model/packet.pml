/* packet.pml — the packet type and flag names of the am path, spelled as the code spells them
 * (one list for both protocols' models, ch3/ and fewest/):
 * the types of rma::PacketType (rma_impl/include/rma/counters.hpp) and the flags of
 * rma::progress::PacketFlag (rma_impl/progress/packet.hpp). check_names.py fails when the two
 * lists drift apart, so a new packet type or flag has to be modelled (or declared not
 * modelled, below) before the model tests pass again. */

mtype = {
  lock, lock_granted, unlock, flush, ack,
  put, get, accumulate, get_accumulate, fetch_and_op, compare_and_swap,
  get_resp, get_accumulate_resp, fetch_and_op_resp, compare_and_swap_resp,
  post, done, fence_count, cts,
  p2p_eager, p2p_rts, p2p_cts, barrier, collective,
  data
}

#define flag_lock_shared    1
#define flag_lock_exclusive 2
#define flag_unlock         4
#define flag_ack_req        8
#define flag_done           16
#define flag_fence_last     32
#define flag_rndv           64
#define flag_error          128
#define flag_pscw           256
#define flag_fence          512
#define flag_layout         1024

/* Declared, not modelled (check_names.py requires every other name to be used by a model):
 * not_modelled: get_accumulate fetch_and_op compare_and_swap get_accumulate_resp
 * not_modelled: fetch_and_op_resp compare_and_swap_resp
 *   (read-modify-writes travel and complete exactly as get does: an op with a reply; the
 *    model's get stands for all four)
 * not_modelled: cts data flag_rndv
 *   (rendezvous data movement: a large op goes alone and blocks its batch until the cts)
 * not_modelled: p2p_eager p2p_rts p2p_cts barrier collective
 *   (the scripts' point-to-point traffic and collectives, not RMA protocol)
 * not_modelled: flag_error
 *   (a target-side range error is reported on the ack or reply the op gets anyway)
 * not_modelled: flag_layout
 *   (a derived-type op's target layout rides in its own payload: the op travels, is held
 *    and completes exactly as a contiguous op of the same bytes)
 */
