// The tablet page's first load: Lighthouse's mobile profile (its default: a mid-range phone, simulated
// slow 4G and 4x CPU slowdown) and the bytes of every response, run by benchmarks/tablet_lighthouse.sh.
//
//   node benchmarks/tablet_lighthouse.mjs <pairing link> <tablet url> [report.json]
//
// A paired tablet is what a scorer opens, so the browser first trades the pairing link (the page keeps
// the device token in localStorage), then everything but the token is cleared: the HTTP cache, the
// service worker and its caches, the board kept offline. Lighthouse then loads /tablet/ in that browser
// with its storage reset turned off (or it would clear the token too): a first load of a paired tablet.
// Each response's body is fetched again and compressed here (gzip level 9, as WhiteNoise's
// CompressedStaticFilesStorage writes it; brotli quality 11), since `manage.py runserver` sends it plain.
import { gzipSync, brotliCompressSync, constants } from "node:zlib";
import { writeFileSync } from "node:fs";
import path from "node:path";

const prefix = process.env.LH_PREFIX || "/tmp/lh";
const chrome = process.env.CHROME_PATH || "/usr/bin/chromium";
const { default: lighthouse } = await import(path.join(prefix, "node_modules/lighthouse/core/index.js"));
const { default: puppeteer } = await import(path.join(prefix, "node_modules/puppeteer-core/lib/esm/puppeteer/puppeteer-core.js"));

const [pairLink, tabletUrl, reportPath] = process.argv.slice(2);
if (!pairLink || !tabletUrl) {
  console.error("usage: node tablet_lighthouse.mjs <pairing link> <tablet url> [report.json]");
  process.exit(2);
}
const origin = new URL(tabletUrl).origin;
const browser = await puppeteer.launch({
  executablePath: chrome, headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
try {
  const page = await browser.newPage();
  await page.goto(pairLink, { waitUntil: "networkidle0" });
  // (a polling loop, not waitForFunction: the page's Content-Security-Policy refuses its eval)
  for (let i = 0; !(await page.evaluate(() => !!localStorage.getItem("hangjack.device"))); i++) {
    if (i > 200) throw new Error("the pairing link did not pair the tablet (is the code fresh? run manage.py demo again)");
    await new Promise((r) => setTimeout(r, 100));
  }
  const token = await page.evaluate(() => {
    const device = JSON.parse(localStorage.getItem("hangjack.device"));
    Object.keys(localStorage).filter((k) => k !== "hangjack.device").forEach((k) => localStorage.removeItem(k));
    return device.token;
  });
  // RUNS loads (default 1), each a first load: the HTTP cache, the service worker and its caches and the
  // board kept offline cleared before each. CPU_SLOWDOWN overrides Lighthouse's 4x CPU slowdown (its
  // docs suggest a smaller one on a host whose benchmarkIndex is low, as a busy shared machine's is).
  const runs = Number(process.env.RUNS || 1);
  const flags = { output: "json", logLevel: "error", onlyCategories: ["performance"], disableStorageReset: true };
  if (process.env.CPU_SLOWDOWN) {
    flags.throttling = { rttMs: 150, throughputKbps: 1638.4, requestLatencyMs: 562.5, downloadThroughputKbps: 1474.56,
                         uploadThroughputKbps: 675, cpuSlowdownMultiplier: Number(process.env.CPU_SLOWDOWN) };
  }
  const results = [];
  for (let run = 0; run < runs; run++) {
    await page.goto(tabletUrl.replace(/\/tablet\/.*$/, "/static/css/tablet.css"));  // same origin: clear the board kept
    await page.evaluate(() => Object.keys(localStorage).filter((k) => k !== "hangjack.device").forEach((k) => localStorage.removeItem(k)));
    await page.goto("about:blank");
    const cdp = await page.createCDPSession();
    await cdp.send("Storage.clearDataForOrigin", { origin, storageTypes: "service_workers,cache_storage" });
    await cdp.send("Network.clearBrowserCache");
    results.push(await lighthouse(tabletUrl, flags, undefined, page));
  }
  results.sort((a, b) => a.lhr.audits.interactive.numericValue - b.lhr.audits.interactive.numericValue);
  const tti = results.map((r) => r.lhr.audits.interactive.numericValue);
  const result = results[Math.floor((results.length - 1) / 2)];  // the median run's report below
  const lhr = result.lhr;
  if (reportPath) writeFileSync(reportPath, result.report);
  console.log(`runs: ${runs}; Time to Interactive of each (ms, sorted): ${tti.map(Math.round).join(", ")}; ` +
    `host benchmarkIndex ${Math.round(lhr.environment.benchmarkIndex)}`);

  const rows = [];
  for (const item of lhr.audits["network-requests"].details.items) {
    if (!item.url.startsWith(origin) || item.url.endsWith("/sw.js")) continue;
    const headers = item.url.includes("/api/") ? { Authorization: "Device " + token } : {};
    const body = Buffer.from(await (await fetch(item.url, { headers })).arrayBuffer());
    rows.push({
      url: item.url.slice(origin.length), status: item.statusCode, sent: item.transferSize, body: body.length,
      gzip: gzipSync(body, { level: 9 }).length,
      brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    });
  }
  const kB = (n) => (n / 1000).toFixed(1);
  const sum = (k) => rows.reduce((a, r) => a + r[k], 0);
  console.log(`Lighthouse ${lhr.lighthouseVersion}, ${lhr.configSettings.formFactor}, throttling ${lhr.configSettings.throttlingMethod}` +
    ` (rtt ${lhr.configSettings.throttling.rttMs} ms, ${lhr.configSettings.throttling.throughputKbps} kbit/s, CPU x${lhr.configSettings.throttling.cpuSlowdownMultiplier})`);
  console.log(`final URL ${lhr.finalDisplayedUrl}; runtime error: ${lhr.runtimeError ? lhr.runtimeError.code : "none"}`);
  for (const id of ["first-contentful-paint", "largest-contentful-paint", "interactive", "total-blocking-time", "speed-index"]) {
    const a = lhr.audits[id];
    console.log(`${id}: ${a.displayValue} (${Math.round(a.numericValue)} ${a.numericUnit === "millisecond" ? "ms" : a.numericUnit})`);
  }
  console.log(`performance score: ${Math.round(lhr.categories.performance.score * 100)}`);
  console.log("response | status | sent here | body | gzip -9 | brotli 11   (kB)");
  for (const r of rows) console.log(`${r.url} | ${r.status} | ${kB(r.sent)} | ${kB(r.body)} | ${kB(r.gzip)} | ${kB(r.brotli)}`);
  console.log(`total | | ${kB(sum("sent"))} | ${kB(sum("body"))} | ${kB(sum("gzip"))} | ${kB(sum("brotli"))}`);
} finally {
  await browser.close();
}
