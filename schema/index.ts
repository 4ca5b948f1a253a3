// The one schema module: every file under data/ is described by the files of this folder, and the
// runner, the scripts, the site and the tests import them from here. base.ts comes first: the other
// files build on its pieces.
export * from './base.ts';
export * from './hypothesis.ts';
export * from './mtu.ts';
export * from './hosts.ts';
export * from './machine.ts';
export * from './history.ts';
export * from './storage.ts';
export * from './bisect.ts';
export * from './master-watch.ts';
