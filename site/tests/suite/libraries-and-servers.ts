// The libraries page (every other library's entry and its comparison with OpenSSL) and the servers page (each machine's servers figures and unusable builds).
import assert from 'node:assert/strict';
import { keyId } from '../../src/lib/version/key-id.ts';
import { reasonText } from '../../src/lib/version/groups.ts';
import { quantity, quantityRange, VERDICT_SHORT } from '../../src/lib/format.ts';
import { librariesView } from '../../src/lib/libraries/view.ts';
import { MEASURE_COMMAND, serversView } from '../../src/lib/servers.ts';
import type { Suite } from './site-under-test.ts';

export function librariesAndServersTests({ name, test }: Suite): void {
  test(`[${name}] the libraries page shows every other library's entry from summary.json, its comparison with OpenSSL, and why a cell is unsupported`, async ({
    page,
    server,
    full,
  }) => {
    await page.goto(`${server.origin}/libraries`, { waitUntil: 'networkidle' });
    const text = await page.locator('main').innerText();
    assert.match(text, /LibreSSL/);
    assert.match(text, /rustls/);
    const views = librariesView(full);
    if (views.length === 0) {
      assert.match(text, /Not measured yet/, 'no library measured: the page says so');
      assert.equal(await page.locator('table.libraries').count(), 0);
      return;
    }
    let measured = 0;
    let unsupported = 0;
    for (const v of views) {
      // each machine on its own page (/libraries shows the default one and links to every other)
      await page.goto(`${server.origin}/libraries/${v.host}`, { waitUntil: 'networkidle' });
      for (const sec of v.sections)
        for (const r of sec.rows)
          for (const [i, e] of r.cells.entries()) {
            // a value of another run sits in that run's own table; the main table's cell only points there (data-status="apart")
            const cell = page.locator(
              `table.libraries[data-host="${v.host}"][data-section="${sec.id}"] tr[data-k="${keyId(r.key)}"] td[data-col="${v.columns[i]!.slug}"]:not([data-status="apart"])`,
            );
            assert.equal(await cell.count(), 1, `${sec.id} ${r.key} ${v.columns[i]!.slug}`);
            if (!e) {
              assert.equal(await cell.getAttribute('data-status'), 'none');
              continue;
            }
            if (e.status === 'measured' && e.stats) {
              assert.equal((await cell.locator('[data-value]').innerText()).trim(), quantity(e.stats.median, e.unit, e.method), `${e.key} ${e.library}`);
              if (e.vsOpenSSL)
                assert.match(
                  await cell.locator('[data-vs-openssl]').innerText(),
                  new RegExp(`vs ${e.vsOpenSSL.against.replace(/\./g, '\\.')}: ${VERDICT_SHORT[e.vsOpenSSL.verdict]}`),
                );
              measured++;
            } else {
              assert.equal(await cell.getAttribute('data-status'), e.status);
              if (e.reason) assert.ok((await cell.innerText()).includes(reasonText(e.reason)), `${e.key} ${e.library}: the reason is shown`);
              unsupported++;
            }
          }
      for (const c of v.columns)
        if (c.build)
          assert.ok(
            (await page.locator(`section[data-host="${v.host}"] .build-options li[data-col="${c.slug}"]`).innerText()).includes(
              c.build.configureArgs.join(' '),
            ),
            `${c.slug}: build options shown`,
          );
    }
    assert.ok(measured > 0, 'no library figure was checked');
    if (name === 'fixture') assert.ok(unsupported > 0, 'the fixture has an unsupported cell (BoringSSL, TLS 1.3 stateful resumption)');
  });

  test(`[${name}] the servers page shows each machine's servers figures as summary.json holds them, the builds a server could not use with their reasons, or says it was not measured`, async ({
    page,
    server,
    full,
  }) => {
    await page.goto(`${server.origin}/servers`, { waitUntil: 'networkidle' });
    const machines = serversView(full);
    if (machines.length === 0) {
      assert.match(await page.locator('main').innerText(), /Not measured yet/);
      return;
    }
    let rows = 0;
    for (const m of machines) {
      const section = page.locator(`section[data-servers-host="${m.host}"]`);
      assert.equal(await section.count(), 1, `${m.host}: one section`);
      assert.match(
        await section.locator('[data-logical-cpus]').innerText(),
        m.logicalCpus === null
          ? /does not say/
          : new RegExp(`has ${m.logicalCpus} logical CPUs?: thread scaling beyond ${m.logicalCpus} threads? cannot be measured`),
      );
      const tables = section.locator('table[data-server-table]');
      if (m.tables.length === 0) {
        const text = await section.innerText();
        assert.match(text, /Not measured yet on this machine/, `${m.host}: says it was not measured`);
        assert.ok(text.includes(MEASURE_COMMAND), `${m.host}: gives the command`);
        assert.equal(await tables.count(), 0, `${m.host}: no empty table`);
        continue;
      }
      assert.equal(await tables.count(), m.tables.length, `${m.host}: one table per server, workload, shape and run`);
      // the tables in the page's order (servers, then workloads short, resumed, bulk, other), each row the data's
      const shown = await tables.evaluateAll((ts) => ts.map((t) => [t.getAttribute('data-server'), t.getAttribute('data-workload')]));
      assert.deepEqual(
        shown,
        m.tables.map((t) => [t.shape.server, t.shape.workload]),
      );
      for (const [i, t] of m.tables.entries()) {
        const trs = tables.nth(i).locator('tbody > tr');
        assert.equal(await trs.count(), t.rows.length);
        for (const [j, r] of t.rows.entries()) {
          const tr = trs.nth(j);
          assert.equal(await tr.getAttribute('data-version'), r.build.version);
          assert.equal(await tr.getAttribute('data-library'), r.build.library);
          const cpu = r.cpu?.status === 'measured' && r.cpu.stats ? String(r.cpu.stats.median) : null;
          assert.equal(
            (await tr.locator('td[data-cpu]').count()) ? await tr.locator('td[data-cpu]').getAttribute('data-cpu') : null,
            cpu,
            `${m.host} ${t.shape.server} ${t.shape.workload} ${r.name}: CPU`,
          );
          if (cpu !== null) {
            assert.equal((await tr.locator('td[data-cpu]').innerText()).trim(), quantity(r.cpu!.stats!.median, r.cpu!.unit, r.cpu!.method));
            const iv = r.cpu!.stats!.interval;
            if (iv)
              assert.ok(
                (await tr.locator('td[data-interval]').innerText()).includes(quantityRange(iv.low, iv.high, r.cpu!.unit, r.cpu!.method)),
                `${r.name}: interval`,
              );
          }
          const ins = r.instructions?.status === 'measured' && r.instructions.stats ? String(r.instructions.stats.median) : null;
          assert.equal(
            (await tr.locator('td[data-instructions]').count()) ? await tr.locator('td[data-instructions]').getAttribute('data-instructions') : null,
            ins,
            `${r.name}: instructions`,
          );
          assert.equal(await tr.locator('td[data-bound]').getAttribute('data-bound'), r.bound?.by ?? null, `${r.name}: what limited the rate`);
          rows++;
        }
      }
      for (const u of m.unusable) {
        const li = section.locator(`[data-unusable="${u.server}"] li[data-unusable-build="${u.build.library}-${u.build.version}-${u.build.variant}"]`);
        assert.equal(await li.count(), 1, `${m.host}: ${u.server} on ${u.name} is listed as unusable`);
        if (u.reason) assert.ok((await li.innerText()).includes(reasonText(u.reason)), `${u.server} on ${u.name}: the recorded reason`);
      }
      assert.equal(
        await section.locator('[data-upgrades] > li').count(),
        m.upgrades.length,
        `${m.host}: one upgrade sentence per server and workload with a 3.0 build and a newer one`,
      );
    }
    if (name === 'fixture') {
      const m = machines.find((x) => x.tables.length > 0);
      assert.ok(m && rows > 0, 'the fixture has servers tables');
      assert.deepEqual([...new Set(m.tables.filter((t) => t.shape.server === 'nginx').map((t) => t.shape.workload))], ['short', 'resumed', 'bulk']);
      assert.ok(
        m.unusable.some((u) => u.server === 'nginx' && u.build.library === 'aws-lc'),
        "nginx refused for AWS-LC, with the recipe's reason",
      );
      assert.ok(
        m.tables.some((t) => t.shape.server === 'haproxy' && t.rows.some((r) => r.build.library === 'aws-lc')),
        'HAProxy with AWS-LC',
      );
      assert.ok(m.upgrades.length > 0, 'an upgrade sentence');
    }
  });
}
