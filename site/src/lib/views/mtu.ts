// The MTU page's tables (ClientHellos, server flights, HelloRetryRequests, QUIC handshakes, model
// assumptions) as downloads, one set per host's MTU result file.
import type { MtuResults } from '../../../../schema/index.ts';
import { planAt } from '../mtu.ts';
import type { View } from './format.ts';

export const mtuViewId = (host: string, table: string) => `mtu/${host}/${table}`;

export function mtuViews(r: MtuResults): View[] {
  const small = r.model.maxDatagramSizes[0]!;
  const sizes = r.model.maxDatagramSizes;
  const shares = (s?: { group: string; bytes: number }[]) => (s ? s.map((x) => `${x.group}:${x.bytes}`).join(' ') : null);
  return [
    {
      id: mtuViewId(r.host.id, 'client-hellos'),
      title: `ClientHello sizes and Initial packets on ${r.host.id}`,
      columns: [
        'version',
        'config',
        'clientGroups',
        'status',
        'reason',
        'keyShares',
        'clientHelloTcpBytes',
        'clientHelloQuicBytes',
        'quicStatus',
        ...sizes.map((s) => `initialPacketsAt${s}`),
        `clientBytesAt${small}`,
        `serverBudgetAt${small}`,
        'measuredFirstFlightDatagrams',
        'measuredFirstFlightBytes',
        'modelAgrees',
        'negotiatedGroup',
      ],
      rows: r.clientHellos.map((c) => {
        const p = planAt(c.plans, small);
        return [
          c.version,
          c.config.label,
          c.config.clientGroups,
          c.status,
          c.reason ?? null,
          shares(c.quic?.keyShares ?? c.tcp?.keyShares),
          c.tcp?.messageBytes,
          c.quic?.messageBytes,
          c.quicStatus ?? null,
          ...sizes.map((s) => planAt(c.plans, s)?.packets ?? null),
          p?.bytesSent,
          p?.serverBudgetBytes,
          c.measuredFirstFlight?.datagrams,
          c.measuredFirstFlight?.bytesSent,
          c.measuredFirstFlight?.matchesModelAt1200,
          c.negotiatedGroup ?? null,
        ];
      }),
    },
    {
      id: mtuViewId(r.host.id, 'server-flights'),
      title: `Server first flight against the amplification budget on ${r.host.id}, at ${small}-byte datagrams`,
      columns: [
        'version',
        'config',
        'cert',
        'status',
        'reason',
        'chainDerBytes',
        'certificateMessageBytes',
        'tcpFlightBytes',
        'quicFlightBytes',
        'budgetBytes',
        'fitsBudget',
        'datagramsWithinBudget',
        'datagrams',
      ],
      rows: r.serverFlights.map((s) => {
        const p = planAt(s.plans, small);
        return [
          s.version,
          s.config.label,
          s.cert,
          s.status,
          s.reason ?? null,
          s.chain?.reduce((a, c) => a + c.derBytes, 0),
          s.messages?.certificate,
          s.tcpFlightBytes,
          p?.bytes,
          p?.budgetBytes,
          p?.fitsBudget,
          p?.datagramsWithinBudget,
          p?.datagrams,
        ];
      }),
    },
    {
      id: mtuViewId(r.host.id, 'hello-retries'),
      title: `HelloRetryRequests on ${r.host.id}`,
      columns: [
        'version',
        'config',
        'status',
        'reason',
        'helloRetryRequest',
        'firstKeyShares',
        'retryKeyShares',
        'clientHelloBytes',
        'extraRoundTrips',
        'handshakeCompleted',
        'libraryError',
        'negotiatedGroup',
      ],
      rows: r.helloRetries.map((h) => [
        h.version,
        h.config.label,
        h.status,
        h.reason ?? null,
        h.helloRetryRequest,
        shares(h.firstKeyShares),
        shares(h.retryKeyShares),
        h.clientHelloBytes?.join(' '),
        h.extraRoundTrips,
        h.handshakeCompleted,
        h.libraryError,
        h.negotiatedGroup,
      ]),
    },
    {
      id: mtuViewId(r.host.id, 'quic-handshakes'),
      title: `Real QUIC handshakes on ${r.host.id}`,
      columns: [
        'version',
        'config',
        'cert',
        'retry',
        'status',
        'reason',
        'datagrams',
        'clientFirstFlightBytes',
        'serverBytesBeforeValidation',
        'amplificationLimitRespected',
        'clientFlightsToFinished',
        'modelAgrees',
        'modelNote',
      ],
      rows: r.quicHandshakes.map((q) => [
        q.version,
        q.config.label,
        q.cert,
        q.retry,
        q.status,
        q.reason ?? null,
        q.datagrams?.length,
        q.clientFirstFlightBytes,
        q.serverBytesBeforeValidation,
        q.amplificationLimitRespected,
        q.clientFlightsToFinished,
        q.model?.agrees,
        q.model?.note,
      ]),
    },
    {
      id: mtuViewId(r.host.id, 'assumptions'),
      title: `Packet model assumptions (${r.host.id})`,
      columns: ['name', 'value', 'unit', 'source'],
      rows: r.model.assumptions.map((a) => [a.name, a.value, a.unit, a.source]),
    },
  ];
}
