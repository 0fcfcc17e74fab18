---@meta
-- Lua language-server (LuaLS) definitions of what rmabench gives a script: the global `rma`,
-- windows, buffers, requests, derived types, and the case table a script returns with its
-- hooks. Point the editor at this folder (`workspace.library`, docs/install.md); it is never
-- run. lua_scripts/API.md says what each name does; harness/lua/lua_meta_test.cpp checks that
-- the names here are the names the bindings expose, both ways.

---@alias rma.dtype "i8"|"i16"|"i32"|"i64"|"u8"|"u16"|"u32"|"u64"|"f32"|"f64"|"2int"|"short_int"|"long_int"|"float_int"|"double_int"
---@alias rma.op "sum"|"prod"|"min"|"max"|"band"|"bor"|"bxor"|"land"|"lor"|"lxor"|"replace"|"no_op"|"maxloc"|"minloc"
---@alias rma.assert "nocheck"|"nostore"|"noput"|"noprecede"|"nosucceed"
---@alias rma.asserts rma.assert|rma.assert[]|nil
---@alias rma.lock_type "exclusive"|"shared"
---@alias rma.type_or_dtype rma.type|rma.dtype

---An RMA error value, as `rma.expect_error` returns it and `pcall` catches it.
---@class rma.error
---@field class string MPI's error class without MPI_ERR_ (`"RMA_SYNC"`)
---@field op string the call that raised it
---@field message string
---@field where string `file.lua:line`

---Each side's (count, type) of a communication call (API.md, "layouts").
---@class rma.layout
---@field origin_type? rma.type_or_dtype
---@field origin_count? integer
---@field target_type? rma.type_or_dtype
---@field target_count? integer
---@field result_type? rma.type_or_dtype
---@field result_count? integer

---The table `rma.window{...}` takes.
---@class rma.window_args
---@field size? integer bytes of this rank's memory
---@field disp_unit? integer
---@field flavor? "allocate"|"create"|"shared"|"dynamic"
---@field info? table<string, string|boolean|integer> `no_locks`, `accumulate_ordering`, `path`, `protocol`, `hold_budget`, `fence_exchange`
---@field path? "am"|"direct"|"auto"
---@field memory? rma.buffer the memory of a `create` window

---The counters `rma.counters()` and `win:counters()` return.
---@class rma.counters
---@field rma integer
---@field by_type table<string, integer>
---@field direct table<string, integer>
---@field transport table<string, integer>
---@field protocol table<string, integer>

---@class rma
rma = {}

---This rank, from 0.
---@type integer
rma.rank = 0
---The number of ranks.
---@type integer
rma.size = 0
---The script's options with their values for this case.
---@type table<string, any>
rma.opt = {}
---@type "shm"|"fabric"|string
rma.backend = ""
---The path the case asked for.
---@type "am"|"direct"|"auto"|string
rma.path = ""
---@type "async"|"calls"|"sync_only"
rma.progress = "async"
---@type "fewest"|"ch3"
rma.protocol = "fewest"
---The largest transfer sent in one packet, bytes.
---@type integer
rma.eager_limit = 0
---The null target rank.
---@type integer
rma.PROC_NULL = -1
---@type rma.op[]
rma.ops = {}
---@type rma.dtype[]
rma.dtypes = {}
---@type rma.assert[]
rma.asserts = {}
---@type rma.dtype[]
rma.pair_dtypes = {}
---@type rma.op[]
rma.pair_ops = {}

---A window, collectively: every rank calls it.
---@param args rma.window_args
---@return rma.window
function rma.window(args) end

---All ranks enter before any leaves.
function rma.barrier() end

---Blocking send of a whole buffer; `tag` 0..2^30 (default 0).
---@param dst integer
---@param buf rma.buffer
---@param tag? integer
function rma.send(dst, buf, tag) end

---Blocking receive into `buf`; returns the number of elements received.
---@param src integer
---@param buf rma.buffer
---@param tag? integer
---@return integer
function rma.recv(src, buf, tag) end

---A zeroed typed buffer.
---@param count integer
---@param dtype? rma.dtype default "u8"
---@return rma.buffer
function rma.buffer(count, dtype) end

---Records a failure when `cond` is false; returns `cond`.
---@generic T
---@param cond T
---@param msg? string
---@return T
function rma.expect(cond, msg) end

---Equality of numbers, strings, booleans or buffer contents.
---@param actual any
---@param expected any
---@param msg? string
---@return boolean
function rma.expect_eq(actual, expected, msg) end

---Calls `fn(...)` and expects an RMA error of `class`; returns the error value.
---@param class string
---@param fn function
---@param ... any
---@return rma.error
function rma.expect_error(class, fn, ...) end

---Ends this rank's case as failed, now.
---@param msg string
function rma.fail(msg) end

---Ends this rank's case as skipped (call it on every rank).
---@param reason string
function rma.skip(reason) end

---A line in the case's log.
---@param ... any
function rma.log(...) end

---Seconds on a monotonic clock shared by the ranks of a host.
---@return number
function rma.now() end

---Records a finite number in the case result.
---@param name string
---@param value number
function rma.metric(name, value) end

---This rank's counters so far.
---@return rma.counters
function rma.counters() end

---The harness's own `op(target, origin)` for one element (pairs: value and index each).
---@param op rma.op
---@param dtype rma.dtype
---@param target number
---@param origin number
---@param ... number
---@return number, integer?
function rma.oracle(op, dtype, target, origin, ...) end

---MPI_Type_contiguous.
---@param count integer
---@param old rma.type_or_dtype
---@return rma.type
function rma.type_contiguous(count, old) end

---MPI_Type_vector.
---@param count integer
---@param blocklength integer
---@param stride integer
---@param old rma.type_or_dtype
---@return rma.type
function rma.type_vector(count, blocklength, stride, old) end

---MPI_Type_create_hvector.
---@param count integer
---@param blocklength integer
---@param stride_bytes integer
---@param old rma.type_or_dtype
---@return rma.type
function rma.type_hvector(count, blocklength, stride_bytes, old) end

---MPI_Type_indexed.
---@param blocklengths integer[]
---@param displacements integer[]
---@param old rma.type_or_dtype
---@return rma.type
function rma.type_indexed(blocklengths, displacements, old) end

---MPI_Type_create_hindexed.
---@param blocklengths integer[]
---@param byte_displacements integer[]
---@param old rma.type_or_dtype
---@return rma.type
function rma.type_hindexed(blocklengths, byte_displacements, old) end

---MPI_Type_create_indexed_block.
---@param blocklength integer
---@param displacements integer[]
---@param old rma.type_or_dtype
---@return rma.type
function rma.type_indexed_block(blocklength, displacements, old) end

---MPI_Type_create_hindexed_block.
---@param blocklength integer
---@param byte_displacements integer[]
---@param old rma.type_or_dtype
---@return rma.type
function rma.type_hindexed_block(blocklength, byte_displacements, old) end

---MPI_Type_create_subarray.
---@param sizes integer[]
---@param subsizes integer[]
---@param starts integer[]
---@param order "c"|"fortran"
---@param old rma.type_or_dtype
---@return rma.type
function rma.type_subarray(sizes, subsizes, starts, order, old) end

---MPI_Type_create_struct.
---@param blocklengths integer[]
---@param byte_displacements integer[]
---@param types rma.type_or_dtype[]
---@return rma.type
function rma.type_struct(blocklengths, byte_displacements, types) end

---MPI_Type_create_resized (bytes).
---@param old rma.type_or_dtype
---@param lb integer
---@param extent integer
---@return rma.type
function rma.type_resized(old, lb, extent) end

---Typed memory owned by C++; element indices are 0-based. `#buf` is the element count.
---@class rma.buffer
---@operator len: integer
local buffer = {}
---@param v number
---@param index? integer a pair element's index
---@return rma.buffer
function buffer:fill(v, index) end
---@param start number
---@param step? number
---@return rma.buffer
function buffer:iota(start, step) end
---@param i integer
---@return number, integer?
function buffer:get(i) end
---@param i integer
---@param v number
---@param index? integer a pair element's index
---@return rma.buffer
function buffer:set(i, v, index) end
---A view of `count` elements from `first` (same memory).
---@param first integer
---@param count? integer
---@return rma.buffer
function buffer:sub(first, count) end
---FNV-1a of the bytes.
---@return integer
function buffer:checksum() end
---@param other rma.buffer
---@return boolean
function buffer:equals(other) end
---@return integer
function buffer:count() end
---@return integer
function buffer:bytes() end
---@return rma.dtype
function buffer:dtype() end
---@return rma.buffer
function buffer:copy() end
---@param other rma.buffer
---@return rma.buffer
function buffer:copy_from(other) end
---element i = op(element i, other[i]); `other` may be a number.
---@param op rma.op
---@param other rma.buffer|number
---@return rma.buffer
function buffer:apply(op, other) end

---A derived datatype (rma.type_*).
---@class rma.type
local datatype = {}
---@return integer
function datatype:size() end
---@return integer
function datatype:extent() end
---@return integer
function datatype:lb() end
---@return integer
function datatype:true_lb() end
---@return integer
function datatype:true_extent() end
---Its basic types in order, run-length encoded: "i32*12,f64*2".
---@return string
function datatype:signature() end
function datatype:free() end

---What a request-based operation returns.
---@class rma.request
local request = {}
---Blocks until local completion.
function request:wait() end
---True once locally complete.
---@return boolean
function request:test() end

---An RMA window. `disp` counts the target's disp_unit; `target` is a rank or rma.PROC_NULL.
---@class rma.window
local window = {}
---@param buf rma.buffer
---@param target integer
---@param disp? integer
---@param layout? rma.layout
function window:put(buf, target, disp, layout) end
---@param buf rma.buffer
---@param target integer
---@param disp? integer
---@param layout? rma.layout
function window:get(buf, target, disp, layout) end
---@param buf rma.buffer
---@param target integer
---@param disp integer
---@param op rma.op
---@param layout? rma.layout
function window:accumulate(buf, target, disp, op, layout) end
---@param buf rma.buffer|nil nil with "no_op"
---@param result rma.buffer
---@param target integer
---@param disp integer
---@param op rma.op
---@param layout? rma.layout
function window:get_accumulate(buf, result, target, disp, op, layout) end
---Without `result`, returns the old value at once (needs a lock or lock_all epoch).
---@param value number|table|nil
---@param target integer
---@param disp integer
---@param op rma.op
---@param dtype rma.dtype
---@param result? rma.buffer
---@return number?, integer?
function window:fetch_and_op(value, target, disp, op, dtype, result) end
---@param compare number
---@param value number
---@param target integer
---@param disp integer
---@param dtype rma.dtype
---@param result? rma.buffer
---@return number?
function window:compare_and_swap(compare, value, target, disp, dtype, result) end
---@param buf rma.buffer
---@param target integer
---@param disp? integer
---@param layout? rma.layout
---@return rma.request
function window:rput(buf, target, disp, layout) end
---@param buf rma.buffer
---@param target integer
---@param disp? integer
---@param layout? rma.layout
---@return rma.request
function window:rget(buf, target, disp, layout) end
---@param buf rma.buffer
---@param target integer
---@param disp integer
---@param op rma.op
---@param layout? rma.layout
---@return rma.request
function window:raccumulate(buf, target, disp, op, layout) end
---@param buf rma.buffer|nil
---@param result rma.buffer
---@param target integer
---@param disp integer
---@param op rma.op
---@param layout? rma.layout
---@return rma.request
function window:rget_accumulate(buf, result, target, disp, op, layout) end
---Active target, collective.
---@param asserts? rma.asserts
function window:fence(asserts) end
---@param group integer[]
---@param asserts? rma.asserts
function window:post(group, asserts) end
---@param group integer[]
---@param asserts? rma.asserts
function window:start(group, asserts) end
function window:complete() end
function window:wait() end
---True once every origin of the post group completed (then it ends the epoch like wait).
---@return boolean
function window:test() end
---@param target integer
---@param lock_type? rma.lock_type default "exclusive"
---@param asserts? rma.asserts
function window:lock(target, lock_type, asserts) end
---@param target integer
function window:unlock(target) end
---@param asserts? rma.asserts
function window:lock_all(asserts) end
function window:unlock_all() end
---@param target integer
function window:flush(target) end
---@param target integer
function window:flush_local(target) end
function window:flush_all() end
function window:flush_local_all() end
---Memory barrier between the public and private copies.
function window:sync() end
---Dynamic windows: returns the displacement peers use.
---@param buf rma.buffer
---@return integer
function window:attach(buf) end
---@param buf rma.buffer
function window:detach(buf) end
---Collective; not inside an epoch.
function window:free() end
---A buffer view of this rank's window memory.
---@param dtype? rma.dtype
---@return rma.buffer
function window:local_buffer(dtype) end
---A view of `rank`'s memory.
---@param rank integer
---@param dtype? rma.dtype
---@return rma.buffer
function window:shared_query(rank, dtype) end
---@return integer
function window:id() end
---@return "am"|"direct"
function window:path() end
---@return "allocate"|"create"|"shared"|"dynamic"
function window:flavor() end
---@return integer
function window:size() end
---This window's packets and direct operations so far.
---@return rma.counters
function window:counters() end

---One table per rank, shared by its hooks.
---@alias rma.ctx table<string, any>

---What a script returns (API.md, "Case table"). Annotate it: `---@type rma.case`.
---@class rma.case
---@field name? string must equal the file's stem
---@field ranks? integer default rank count (2)
---@field options? table<string, {[1]: string, [2]: number|string|boolean}> `{ name = {"description", default} }`
---@field setup? fun(ctx: rma.ctx)
---@field run? fun(ctx: rma.ctx)
---@field check? fun(ctx: rma.ctx)
---@field teardown? fun(ctx: rma.ctx)
---@field messages? table<string, integer>|fun(ctx: rma.ctx): table<string, integer>?|"varies" am packets during `run`, per iteration
---@field expect? "pass"|"deadlock"|"race"
---@field iterations? integer how many times `run` repeats
---@field impl_defined? string|table<string, string> what MPI leaves to the implementation
---@field timeout? number|table<integer|string, number> seconds, or `{ seconds, option = seconds per unit }`
