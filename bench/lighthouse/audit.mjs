// One Lighthouse run (mobile defaults) on URL, written to OUT as JSON; with SESSION, signed in.
// Run by bench/audit.py. The session goes in as a real cookie (not an extra header), so the
// page's sockets and fetches carry it too, as a player's browser would.
//   node bench/lighthouse/audit.mjs URL OUT [SESSION]
import {writeFileSync} from "node:fs";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import puppeteer from "puppeteer-core";

const [url, out, session] = process.argv.slice(2);
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH || "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
  const browser = await puppeteer.connect({browserURL: `http://127.0.0.1:${chrome.port}`});
  const page = await browser.newPage();
  if (session) {
    await browser.setCookie({name: "sessionid", value: session, domain: new URL(url).hostname, path: "/",
                             httpOnly: true, sameSite: "Lax"});
  }
  const result = await lighthouse(url, {port: chrome.port, output: "json", logLevel: "error",
                                        onlyCategories: ["performance", "accessibility", "best-practices"]},
                                  undefined, page);
  writeFileSync(out, result.report);
  await browser.disconnect();
} finally {
  await chrome.kill();
}
