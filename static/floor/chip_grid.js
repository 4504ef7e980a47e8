// The chip grid: running totals (display only: the server recounts every figure) and the
// toggle between chip counts and dollar amounts per denomination. Dollars are read as whole
// cents from the text, never through a binary fraction; the server converts them again.
(function () {
  const grid = document.getElementById("chip-grid");
  const dollars = new Intl.NumberFormat("en-US", {style: "currency", currency: "USD"});
  const DOLLARS = /^\$?(\d{1,3}(?:,\d{3})+|\d{1,12})(?:\.(\d{1,2}))?$/;
  function money(cents) { return (cents < 0 ? "-" : "") + dollars.format(Math.abs(cents) / 100); }
  function mode() {
    const checked = document.querySelector("input.entry-mode:checked");
    return checked ? checked.value : "chips";
  }
  function cents(text) {  // "1,250.5" -> 125050; blank -> 0; not dollars -> null
    text = text.trim();
    if (text === "") return 0;
    const match = DOLLARS.exec(text);
    if (!match) return null;
    return parseInt(match[1].replace(/,/g, ""), 10) * 100 + parseInt(((match[2] || "") + "00").slice(0, 2), 10);
  }
  function quantity(input) {
    return /^\d+$/.test(input.value.trim()) ? parseInt(input.value, 10) : 0;
  }
  function plain(amountCents) {  // 125050 -> "1250.50"
    return Math.floor(amountCents / 100) + "." + String(amountCents % 100).padStart(2, "0");
  }
  function rows() {
    return Array.from(grid.querySelectorAll("tbody tr")).map(function (row) {
      return {
        row: row,
        qty: row.querySelector("input.chip-qty"),
        amount: row.querySelector("input.chip-amount"),
        value: parseInt(row.querySelector("input.chip-qty").dataset.valueCents, 10),
      };
    });
  }
  function update() {
    const byAmount = mode() === "amounts";
    let total = 0, count = 0, differs = false;
    rows().forEach(function (r) {
      let line = 0, qty = 0, whole = true;
      if (byAmount) {
        line = cents(r.amount.value);
        whole = line !== null && line % r.value === 0;
        r.amount.classList.toggle("is-invalid", !whole);
        line = line || 0;
        qty = whole ? line / r.value : 0;
      } else {
        qty = quantity(r.qty);
        line = qty * r.value;
      }
      document.getElementById("line-" + r.value).textContent = money(line);
      total += line; count += qty;
      const previous = r.row.querySelector(".previous-qty");
      if (previous) {
        const same = whole && parseInt(previous.dataset.qty, 10) === qty;
        previous.classList.toggle("text-danger", !same);
        differs = differs || !same;
      }
    });
    document.getElementById("grand-total").textContent = money(total);
    document.getElementById("grand-quantity").textContent = count;
    const variance = document.getElementById("variance-box");
    if (variance) variance.classList.toggle("border-danger", differs);
    const flag = document.getElementById("variance-flag");
    if (flag) flag.hidden = !differs;
  }
  function switchMode() {
    // Carry what was typed into the other boxes, then show only the mode's boxes.
    const byAmount = mode() === "amounts";
    rows().forEach(function (r) {
      if (byAmount) {
        const qty = quantity(r.qty);
        r.amount.value = qty ? plain(qty * r.value) : "";
      } else {
        const line = cents(r.amount.value);
        if (line !== null && line % r.value === 0) r.qty.value = line ? line / r.value : "";
      }
      r.qty.hidden = byAmount;
      r.amount.hidden = !byAmount;
      const label = r.row.querySelector("label.chip-label");
      label.htmlFor = byAmount ? label.dataset.amountFor : label.dataset.qtyFor;
    });
    document.getElementById("entry-heading").textContent = byAmount ? "Dollars" : "Quantity";
    update();
  }
  grid.addEventListener("input", update);
  document.querySelectorAll("input.entry-mode").forEach(function (radio) {
    radio.addEventListener("change", switchMode);
  });
  // The variance box comes after the grid on the opener page: recount once the page is parsed.
  // A mode chosen before this script ran (a slow page at the pit) found no listener: where the
  // boxes shown are not the chosen mode's, carry what was typed across as a switch would.
  function ready() {
    const first = rows()[0];
    if (first && first.amount.hidden === (mode() === "amounts")) switchMode();
    else update();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
