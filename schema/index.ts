// The one schema module: every file under data/ is described by the files of this folder, and the
// runner, the scripts, the site and the tests import them from here. primitives.ts holds the field types
// the others build on; a run file is host.ts, build.ts, series.ts and quiet.ts put together by run.ts;
// summary.ts describes what the aggregation derives from run files.
export * from './primitives.ts';
export * from './host.ts';
export * from './build.ts';
export * from './series.ts';
export * from './quiet.ts';
export * from './run.ts';
export * from './summary.ts';
export * from './hypothesis.ts';
export * from './mtu.ts';
export * from './hosts.ts';
export * from './machine.ts';
export * from './history.ts';
export * from './storage.ts';
export * from './bisect.ts';
export * from './master-watch.ts';
