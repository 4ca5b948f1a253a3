// data/hosts.json: who owns each contributed host name. A pull request may add runs only for a name its
// author owns (every machine of that name: <name>.<cpu>-<fingerprint>, schema/machine.ts); a name not
// listed here is new and a maintainer reviews it (and adds it here) when merging its first run: a name
// with accepted runs takes no more until it is listed. The owner is the GitHub account id; the login
// beside it is for readers (a login can be renamed and then taken by someone else, the id cannot).
// The project's own machines (reserved prefix, bench.yml) need no entry.
import { z } from 'zod';
import { safeId, shortText } from './primitives.ts';

/** A GitHub login: letters, digits and single hyphens, at most 39 characters. */
export const githubLogin = z
  .string()
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/, 'a GitHub login (letters, digits, single hyphens, at most 39 characters)');

export const HostRegistry = z
  .object({
    schemaVersion: z.literal(1),
    kind: z.literal('host-registry'),
    hosts: z.array(
      z.object({
        id: safeId.describe('the host name (host.name of its runs), not a machine id'),
        owner: githubLogin.describe('the login of the GitHub account whose pull requests may add runs for this host, when it was registered'),
        ownerId: z.number().int().positive().describe("that account's numeric id (api.github.com/users/<login>: id), what ownership is checked by"),
        note: shortText(500).optional(),
      }),
    ),
  })
  .superRefine((registry, ctx) => {
    // host ids are compared without letter case everywhere (a case twin is a different-looking same id)
    const seen = new Set<string>();
    registry.hosts.forEach((h, i) => {
      if (seen.has(h.id.toLowerCase()))
        ctx.addIssue({ code: 'custom', path: ['hosts', i, 'id'], message: `host id ${h.id} is listed twice (letter case ignored)` });
      seen.add(h.id.toLowerCase());
    });
  });
export type HostRegistry = z.infer<typeof HostRegistry>;
