// The host's link for phones: a QR code of the page's address, every LAN address, the mDNS name
// once announced, and "say it aloud". Shown while the host controls are open.
"use strict";

const Link = (() => {
  let data = null, fetched = 0, drawn = "";

  async function load() {
    fetched = Date.now();
    const response = await fetch("/api/link", {cache: "no-store"});
    data = response.ok ? await response.json() : null;
  }

  function draw() {
    const section = $("link");
    const shown = app.host && app.hostOpen;
    if (shown && Date.now() - fetched > (data && data.local ? 60000 : 3000)) load().then(draw);
    section.hidden = !shown || !data;
    if (section.hidden) return;
    const addresses = [...data.urls, ...(data.local ? [data.local] : [])];
    const key = app.lang + addresses.join(" ");
    if (key === drawn) return;
    drawn = key;
    const open = section.querySelector("details[open]") !== null;
    section.innerHTML = `<details data-details="link"${open ? " open" : ""}>` +
      `<summary>${esc(t("ui.link"))}</summary><div class="qr">${data.qr}</div>` +
      `<p>${esc(t("ui.link_hint"))}</p><ul>` +
      addresses.map((url) => `<li><a href="${esc(url)}">${esc(url)}</a></li>`).join("") +
      `</ul><button type="button" data-link-say>${esc(t("ui.link_say"))}</button></details>`;
  }

  document.addEventListener("click", (event) => {
    if (event.target.closest("[data-link-say]")) post("/api/link/say", {});
  });
  setInterval(draw, 1000);
  return {draw};
})();
