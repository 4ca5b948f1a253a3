// Plain-language meaning of each measurement method and unit in the schema (shown on the methodology page).
import type { Method, Unit } from '../../../schema/index.ts';

export const METHOD_TEXT: Record<Method, string> = {
  'wall-clock-throughput': 'work done divided by elapsed wall-clock time; includes everything else the machine was doing',
  'cpu-time-client': 'CPU time spent by the client side only, per operation (in-process, over a memory BIO pair)',
  'cpu-time-server': 'CPU time spent by the server side only, per operation (in-process, over a memory BIO pair)',
  'cpu-time-both': 'client plus server CPU time per operation, both sides in one process over a memory BIO pair',
  'cpu-time-thread':
    'CPU time of the one thread that did the work (CLOCK_THREAD_CPUTIME_ID), per operation or as work per CPU-second: time the thread waited for a CPU while other work ran is not in it',
  'call-count': 'calls into named library functions (locks, atomics) per operation, counted by valgrind callgrind: deterministic for a binary and input',
  'instruction-count':
    'instructions executed, counted by valgrind: deterministic for a binary and input, but valgrind hides some CPU features, so the code path can differ from a native run',
  'heap-bytes': "bytes held on the heap, counted through OpenSSL's own allocator hooks (not the process RSS)",
  'wire-bytes': 'bytes the library put on the wire',
  'client-user-cpu':
    'openssl s_time: connections per second of CLIENT user CPU over loopback sockets (the server is not counted); for comparison with published figures only',
  'openssl-speed':
    "openssl speed's own measurement; its method changed between versions (AEAD ciphers in 3.5), so values are marked where they are not comparable",
};

export const UNIT_TEXT: Record<Unit, string> = {
  'bytes/s': 'bytes processed per second',
  'ops/s': 'operations per second',
  'handshakes/s': 'completed handshakes per second (of the CPU time or wall time the method names)',
  'connections/s': 'connections per second',
  'us/op': 'microseconds per operation',
  'us/handshake': 'microseconds per handshake',
  instructions: 'instructions executed per operation',
  bytes: 'bytes',
  count: 'a count',
};

/** Short names of the methods for table cells (METHOD_TEXT says what each means). */
export const METHOD_NAME: Record<Method, string> = {
  'wall-clock-throughput': 'wall-clock time',
  'cpu-time-client': 'client CPU time',
  'cpu-time-server': 'server CPU time',
  'cpu-time-both': 'client + server CPU time',
  'cpu-time-thread': 'CPU time of one thread',
  'call-count': 'call count (callgrind)',
  'instruction-count': 'instruction count (valgrind)',
  'heap-bytes': 'heap bytes',
  'wire-bytes': 'bytes on the wire',
  'client-user-cpu': 's_time client user CPU',
  'openssl-speed': 'openssl speed',
};
