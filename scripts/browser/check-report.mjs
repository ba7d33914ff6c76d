// Opens schedlab HTML reports in headless Chromium and checks what a reader relies on:
// the page loads with no console errors and fetches nothing, its claims and tables are in the
// DOM, a table sorts from the keyboard, the print stylesheet applies; and takes a full-page
// screenshot of each as it loads.
//
//   node check-report.mjs SCREENSHOT_DIR PAGE.html...
//
// Chromium is Debian's (/usr/bin/chromium, or $CHROMIUM); playwright-core only drives it.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [outDir, ...pages] = process.argv.slice(2);
if (!outDir || pages.length === 0) {
  console.error('usage: node check-report.mjs SCREENSHOT_DIR PAGE.html...');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
let failures = 0;
const fail = (page, message) => {
  failures += 1;
  console.error(`FAIL ${page}: ${message}`);
};

for (const file of pages) {
  const failuresBefore = failures;
  const path = resolve(file);
  const url = pathToFileURL(path).href;
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      problems.push(`console ${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('request', (request) => {
    if (request.url() !== url) problems.push(`fetched ${request.url()} (pages must be self-contained)`);
  });
  await page.goto(url, { waitUntil: 'load' });
  for (const problem of problems) fail(file, problem);

  const h1 = await page.locator('h1').count();
  if (h1 !== 1) fail(file, `expected one h1, found ${h1}`);
  const claimsMeta = await page.locator('meta[name="schedlab-claims"]').getAttribute('content').catch(() => null);
  const isExperiment = claimsMeta !== null;
  const tables = page.locator('table.sortable');
  const tableCount = await tables.count();
  if (tableCount === 0) fail(file, 'no sortable table');
  for (let index = 0; index < tableCount; index += 1) {
    const rows = await tables.nth(index).locator('tbody tr').count();
    if (rows === 0) fail(file, `table ${index} has no rows`);
  }
  let summary = `${tableCount} tables`;
  if (isExperiment) {
    const [held, total] = claimsMeta.split(' of ').map(Number);
    if (total > 0) {
      // Five verdicts, each row one of them, counted as the page's meta says.
      const verdicts = (await page.locator('meta[name="schedlab-verdicts"]').getAttribute('content')).split(' ').map(Number);
      const rows = await page.locator('#claims tbody tr').count();
      const counted = [];
      for (const kind of ['holds', 'missed', 'inconclusive', 'unreachable', 'incomplete']) {
        counted.push(await page.locator(`#claims tbody tr.${kind}`).count());
      }
      const sum = counted.reduce((a, b) => a + b, 0);
      if (rows !== total || counted[0] !== held || sum !== rows || counted.join(' ') !== verdicts.join(' ')) {
        fail(file, `claims: meta says ${claimsMeta} (${verdicts.join(' ')}), DOM has ${rows} rows, ${counted.join(' ')} by verdict`);
      }
      const colour = await page.locator('#claims tbody tr td.verdict').first().evaluate((cell) => getComputedStyle(cell).backgroundColor);
      if (colour === 'rgba(0, 0, 0, 0)') fail(file, 'claim verdicts are not coloured');
      summary += `, claims ${held} of ${total} hold (${counted.join('/')} holds/missed/inconclusive/unreachable/incomplete)`;
    }
    const plots = await page.locator('figure svg').count();
    summary += `, ${plots} inline plots`;
  }

  // The page as it loads, before anything is sorted.
  const name = basename(path) === 'index.html' ? basename(dirname(path)) : basename(path, '.html');
  const shot = resolve(outDir, `${name}.png`);
  await page.screenshot({ path: shot, fullPage: true });

  // Keyboard: the first Tab reaches the skip link; a sort button works with Enter.
  await page.keyboard.press('Tab');
  const first = await page.evaluate(() => document.activeElement && document.activeElement.className);
  if (first !== 'skip') fail(file, `the first Tab focuses '${first}', not the skip link`);
  const table = tables.first();
  const columns = await table.locator('thead button.sort').count();
  const column = columns > 1 ? 1 : 0;
  const button = table.locator('thead button.sort').nth(column);
  await button.focus();
  const values = () => table.evaluate((element, index) => Array.from(element.tBodies[0].rows).map((row) => {
    const cell = row.cells[index];
    return cell.hasAttribute('data-sort') ? Number(cell.getAttribute('data-sort')) : null;
  }), column);
  await page.keyboard.press('Enter');
  const ascending = await values();
  const sortState = await table.locator('thead th').nth(column).getAttribute('aria-sort');
  await page.keyboard.press('Enter');
  const descending = await values();
  const numbers = (list) => list.filter((value) => value !== null);
  const sorted = (list, direction) => list.every((value, index) => index === 0 || direction * (value - list[index - 1]) >= 0);
  if (sortState !== 'ascending') fail(file, `Enter on a header gives aria-sort=${sortState}`);
  if (!sorted(numbers(ascending), 1) || !sorted(numbers(descending), -1)) {
    fail(file, `column ${column} does not sort: ${ascending} then ${descending}`);
  }

  // Printed: navigation and hints hidden.
  await page.emulateMedia({ media: 'print' });
  const navShown = await page.evaluate(() => {
    const nav = document.querySelector('nav');
    return nav !== null && getComputedStyle(nav).display !== 'none';
  });
  if (navShown) fail(file, 'the navigation is printed');

  const verdict = failures === failuresBefore ? 'ok' : 'FAILED';
  console.log(`${verdict} ${file}: ${summary}; screenshot ${shot}`);
  await context.close();
}
await browser.close();
if (failures > 0) {
  console.error(`${failures} problems`);
  process.exit(1);
}
