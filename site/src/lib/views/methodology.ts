// The methodology page's hosts and builds tables as downloads.
import type { Build, Host } from '../../../../schema/index.ts';
import { CPU_FLAGS } from '../cpu-flags.ts';
import type { View } from './format.ts';

export function hostsView(hosts: readonly Host[]): View {
  return {
    id: 'methodology/hosts',
    title: 'Hosts the runs were taken on, with every recorded CPU flag (empty: not recorded)',
    columns: ['host', 'arch', 'cpuModel', 'logicalCpus', 'memoryBytes', 'kernel', 'os', 'virtualization', 'cpuGovernor', 'boost', 'smt', ...CPU_FLAGS],
    rows: hosts.map((h) => [
      h.id,
      h.arch,
      h.cpuModel,
      h.logicalCpus,
      h.memoryBytes,
      h.kernel,
      h.os,
      h.virtualization,
      h.cpuGovernor,
      h.boost ?? null,
      h.smt ?? null,
      ...CPU_FLAGS.map((f) => h.cpuFlags[f] ?? null),
    ]),
  };
}

export function buildsView(builds: readonly (Build & { host: string })[]): View {
  return {
    id: 'methodology/builds',
    title: 'Builds: toolchain, options and the CPU capability vector each reported on its host',
    columns: [
      'host',
      'version',
      'variant',
      'buildId',
      'versionString',
      'sourceKind',
      'sourceName',
      'sha256',
      'configureArgs',
      'compiler',
      'cflags',
      'cpuCapabilities',
    ],
    rows: builds.map((b) => [
      b.host,
      b.version,
      b.variant,
      b.id,
      b.versionString,
      b.source.kind,
      b.source.name,
      b.source.sha256,
      b.configureArgs.join(' '),
      b.compiler,
      b.cflags,
      b.cpuCapabilities ?? null,
    ]),
  };
}
