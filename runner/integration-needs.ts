// What an integration test needs that the integration tier provides: `npm run test:integration` fetches every
// source archive and builds every build the tests use before it runs them (package.json test:builds), so in
// that tier a missing one is a harness bug and must fail, not show green as a skip. Run alone (node --test
// on one file, without the builds), the test is skipped with the reason.

/** The tier scripts/run-tests.ts is running, read by `needs`. */
export const TIER_VARIABLE = 'OBSERVATORY_TEST_TIER';

/** The `skip` option of a test that needs `have`: false when present; else the reason, or, in the integration tier, an error. */
export function needs(have: unknown, what: string): false | string {
  if (have) return false;
  if (process.env[TIER_VARIABLE] === 'integration')
    throw new Error(`${what}, although the integration tier provides it first (npm run test:builds): the harness is broken, not the test`);
  return what;
}
