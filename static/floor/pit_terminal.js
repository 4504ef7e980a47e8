// The pit terminal: a shared station's one screen. Every step (open the day, open a table,
// seat or relieve a dealer, prepare a fill or credit, verify or receive a waiting slip, go on
// or off duty, collect a table fee where the revenue is fees) opens inline in #pit-panel with the badges of only the people allowed to take
// it there (floor.pit_terminal, read from the board's #pit-data) and is sent to the REST API
// with the person's badge and PIN. The server decides; a refusal is shown in the panel.
//
// A dropped network (house control, the API's Idempotency-Key): a slip step taken while the
// browser is offline is kept in memory with its own Idempotency-Key and the moment it was
// taken, listed as "waiting to send", and sent once the network is back, one at a time in the
// order taken; a retry after a lost answer repeats the same key and body, so it is written
// exactly once. A refusal on arrival is listed under "Refused when sent".
//
// The queue outlives a reload and a new sign-in: it is kept in the browser's localStorage, one
// queue per station login and site (#pit-outbox's data-store), sealed with AES-GCM under a key
// the server derives for that login and site (data-seal, floor.views.outbox_seal), so a queued
// step's PIN is never stored readable, another login cannot open it, and the same station
// signed in again does. A reloaded page restores it, shows it as waiting and sends each step
// once, with its own Idempotency-Key; a step is dropped from storage once answered. A queue
// that cannot be opened (the server's secret changed) is dropped and listed as not sent. Where
// the browser offers no WebCrypto (a page not served over HTTPS off localhost), the queue lives
// in this page only: the terminal says so (#pit-volatile) and leaving the page asks first.
(function () {
  "use strict";
  const panel = document.getElementById("pit-panel");
  const board = document.getElementById("pit-board");
  if (!panel || !board) return;
  const outboxBox = document.getElementById("pit-outbox");
  const outboxList = document.getElementById("pit-outbox-items");
  const refusalBox = document.getElementById("pit-refusals");
  const refusalList = document.getElementById("pit-refusal-items");
  const flashBox = document.getElementById("pit-flash");
  const volatileNote = document.getElementById("pit-volatile");  // shown where the queue is not kept
  const dollars = new Intl.NumberFormat("en-US", {style: "currency", currency: "USD"});
  const csrf = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
  const outbox = [];
  const localStatus = {};  // slip id -> status after a step queued offline
  let data = read();
  let sending = false;
  let restored = false;  // the kept queue is read back before anything is sent
  let keeps = false;  // the queue is kept through a reload

  function read() {
    const el = document.getElementById("pit-data");
    return el ? JSON.parse(el.textContent) : null;
  }
  document.body.addEventListener("htmx:afterSwap", function (event) {
    if (event.target === board) { data = read(); markQueued(); }
  });

  // --- Small DOM helpers (text only: names are set as text, never as markup) ---------------
  function h(tag, attrs, children) {
    const el = document.createElement(tag);
    Object.entries(attrs || {}).forEach(function ([name, value]) {
      if (value === false || value === null || value === undefined) return;
      if (name === "text") el.textContent = value;
      else el.setAttribute(name, value === true ? "" : value);
    });
    (children || []).forEach(function (child) { if (child) el.appendChild(child); });
    return el;
  }
  function money(cents) { return dollars.format(cents / 100); }
  function key() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    const x = Array.from(b, function (v) { return v.toString(16).padStart(2, "0"); }).join("");
    return x.slice(0, 8) + "-" + x.slice(8, 12) + "-" + x.slice(12, 16) + "-" + x.slice(16, 20) + "-" + x.slice(20);
  }
  function localIso(date) {  // the browser's local time with its offset, to the second
    const offset = -date.getTimezoneOffset();
    const pad = function (n) { return String(Math.floor(Math.abs(n))).padStart(2, "0"); };
    const local = new Date(date.getTime() + offset * 60000).toISOString().slice(0, 19);
    return local + (offset >= 0 ? "+" : "-") + pad(offset / 60) + ":" + pad(offset % 60);
  }
  function flash(text) {
    flashBox.textContent = text;
    flashBox.hidden = false;
    clearTimeout(flash.timer);
    flash.timer = setTimeout(function () { flashBox.hidden = true; }, 6000);
  }
  function refresh() { if (window.htmx) htmx.trigger(board, "pit-refresh"); }
  function byId(list, id) { return (list || []).find(function (x) { return String(x.id) === String(id); }); }

  // --- The panel -------------------------------------------------------------------------------
  function close() { panel.hidden = true; panel.replaceChildren(); }

  // A row of badges (radio buttons), one per person allowed; `chosen`: preselected id.
  function badges(name, legend, people, chosen, onChoose) {
    const group = h("div", {class: "d-flex flex-wrap gap-2", role: "radiogroup", "aria-label": legend});
    people.forEach(function (p) {
      const id = "pit-" + name + "-" + p.id;
      const input = h("input", {type: "radio", class: "btn-check", name: name, id: id, value: p.id,
        "data-initials": p.initials, autocomplete: "off", checked: String(p.id) === String(chosen)});
      input.addEventListener("change", function () { if (onChoose) onChoose(p); });
      group.appendChild(input);
      group.appendChild(h("label", {class: "btn btn-outline-primary btn-lg badge-button", for: id, title: p.name},
        [h("span", {text: p.initials}), h("small", {class: "d-block small fw-normal", text: p.name})]));
    });
    return h("fieldset", {class: "mb-3", id: "pit-" + name}, [
      h("legend", {class: "form-label fw-semibold fs-6 mb-1", text: legend}),
      people.length ? group : h("p", {class: "text-danger mb-0", text: "Nobody here may take this step (with a PIN)."}),
    ]);
  }
  function chosen(form, name) {
    const input = form.querySelector("input[name='" + name + "']:checked");
    return input ? {id: parseInt(input.value, 10), initials: input.dataset.initials} : null;
  }
  function pinField() {
    return h("div", {class: "mb-3"}, [
      h("label", {class: "form-label fw-semibold", for: "pit-pin", text: "PIN"}),
      h("input", {type: "password", id: "pit-pin", name: "pin", class: "form-control form-control-lg",
        inputmode: "numeric", autocomplete: "off", maxlength: "32"}),
    ]);
  }

  // Opens the panel with `fields`; on submit `build(form)` gives the request or null.
  function open(title, intro, fields, submitLabel, build, focus) {
    const errors = h("div", {class: "alert alert-danger", id: "pit-panel-errors", role: "alert", hidden: true});
    const form = h("form", {class: "card-body", id: "pit-form", novalidate: true}, [
      h("div", {class: "d-flex align-items-center gap-2 mb-2"}, [
        h("h2", {class: "h5 mb-0 me-auto", id: "pit-panel-title", text: title}),
        h("button", {type: "button", class: "btn-close", "aria-label": "Cancel", id: "pit-cancel"}),
      ]),
      intro ? h("p", {class: "text-muted small", text: intro}) : null,
      errors,
    ].concat(fields).concat([
      submitLabel ? h("div", {class: "d-flex flex-wrap gap-2"}, [
        h("button", {type: "submit", class: "btn btn-primary btn-lg", id: "pit-submit", text: submitLabel}),
      ]) : null,
    ]));
    form.querySelector("#pit-cancel").addEventListener("click", close);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      const request = build && build(form);
      if (!request) return;
      if (data && data.station) {
        const signer = form.querySelector("input[name=signer]:checked");
        request.body.signer_badge = signer ? signer.dataset.initials : "";
        request.body.signer_pin = form.querySelector("#pit-pin").value;
      }
      submit(request, form);
    });
    panel.replaceChildren(form);
    panel.hidden = false;
    panel.scrollIntoView({block: "start"});
    const target = focus ? form.querySelector(focus) : null;
    if (target) target.focus();
    else if (form.querySelector("input[name=signer]:checked")) form.querySelector("#pit-pin").focus();
    return form;
  }
  function showErrors(form, messages) {
    const box = form.querySelector("#pit-panel-errors");
    box.replaceChildren.apply(box, messages.map(function (m) { return h("div", {text: m}); }));
    box.hidden = false;
    const pin = form.querySelector("#pit-pin");
    if (pin) { pin.value = ""; pin.focus(); }
  }
  function signerFocus(form) {  // a badge chosen: the PIN is next
    form.querySelectorAll("input[name=signer]").forEach(function (input) {
      input.addEventListener("change", function () { form.querySelector("#pit-pin").focus(); });
    });
  }
  function signers(people, legend, preselect) {
    const only = people.length === 1 ? people[0].id : null;
    return badges("signer", legend, people, preselect || only);
  }

  // --- The steps -------------------------------------------------------------------------------
  // Where a slip's chips are typed first: a fill in the denomination the table's last fill brought
  // most of (floor.queries.last_fill_denominations), still offered; otherwise the largest chip.
  function firstChip(kind, table) {
    const last = kind === "fill" && table.last_fill_cents;
    const offered = last && data.chips.some(function (chip) { return chip.value_cents === last; });
    return offered ? "#pit-qty-" + last : ".pit-qty";
  }

  // One box a denomination, the largest first, and the total as typed: a slip's chips, or the
  // tray counted at a dealer change.
  function chipFields() {
    const rows = data.chips.map(function (chip) {
      return h("div", {class: "col-6 col-md-4 col-xl-2"}, [
        h("label", {class: "form-label fw-semibold mb-0", for: "pit-qty-" + chip.value_cents, text: chip.label},
          [h("small", {class: "text-muted fw-normal ms-1", text: chip.colour})]),
        h("input", {type: "text", inputmode: "numeric", class: "form-control form-control-lg text-end pit-qty",
          id: "pit-qty-" + chip.value_cents, "data-value-cents": chip.value_cents, autocomplete: "off",
          "aria-label": chip.label + " chips"}),
      ]);
    });
    return [h("div", {class: "row g-2 mb-2", id: "pit-chips"}, rows),
      h("p", {class: "fs-5 fw-bold", id: "pit-total", text: "Total " + money(0)})];
  }
  function typedChips(form) {
    const chips = [];
    form.querySelectorAll(".pit-qty").forEach(function (input) {
      const typed = input.value.trim();
      if (!typed || /^0+$/.test(typed)) return;  // a value with no chips is left out
      // Anything but a whole number goes as typed, for the server to refuse at its chip: read
      // as a number, "2O" (a letter O) was 2 chips and "1.5" was 1, a fill nobody counted.
      chips.push({denomination: parseInt(input.dataset.valueCents, 10), quantity: wholeChips(typed) ?? typed});
    });
    return chips;
  }
  function showTotal(form) {
    form.querySelectorAll(".pit-qty").forEach(function (input) {
      input.addEventListener("input", function () {
        const chips = Array.from(form.querySelectorAll(".pit-qty")).map(function (i) {
          return {denomination: parseInt(i.dataset.valueCents, 10), quantity: wholeChips(i.value.trim()) || 0};
        });
        form.querySelector("#pit-total").textContent = "Total " + money(chipsTotal(chips));
      });
    });
  }

  function prepare(kind, tableId) {
    const table = byId(data.tables, tableId);
    if (!table) return;
    const label = kind === "fill" ? "Fill" : "Credit";
    const preparers = kind === "fill" ? data.fill_preparers : table.credit_preparers;
    const cashiers = data.cashiers.filter(function (c) { return c.cashier; });
    const cashierBox = h("div", {id: "pit-cashier-box", hidden: true}, [
      badges("cashier", "Whose initials the fill carries: the chip bank cashier, or a dealer acting as cashier",
        data.cashiers, cashiers.length === 1 ? cashiers[0].id : null,
        function () { form.querySelector("#pit-pin").focus(); }),
    ]);
    const paperAt = h("div", {class: "mb-3", id: "pit-paper-box", hidden: true}, [
      h("label", {class: "form-label fw-semibold", for: "pit-prepared-at", text: "Prepared at (from the paper, the site's local time)"}),
      h("input", {type: "datetime-local", id: "pit-prepared-at", class: "form-control"}),
    ]);
    const paperToggle = h("div", {class: "form-check mb-3"}, [
      h("input", {type: "checkbox", class: "form-check-input", id: "pit-from-paper"}),
      h("label", {class: "form-check-label", for: "pit-from-paper", text: "From paper (an earlier time)"}),
    ]);
    const form = open(label + " · Table " + table.number,
      kind === "fill" ? "Chips from the chip bank to this table." : "Chips from this table back to the chip bank.",
      chipFields().concat([signers(preparers, "Who prepares it"), cashierBox, pinField(), paperToggle, paperAt]),
      "Prepare " + label.toLowerCase(),
      function (f) {
        const chips = typedChips(f);
        const body = {table: table.id, chips: chips};
        const cashier = chosen(f, "cashier");
        if (kind === "fill" && !f.querySelector("#pit-cashier-box").hidden && cashier) body.cashier = cashier.id;
        const at = f.querySelector("#pit-prepared-at").value;
        if (f.querySelector("#pit-from-paper").checked && at) body.prepared_at = at;
        return {url: "/api/v1/" + kind + "-slips/", body: body, timeField: "prepared_at",
          label: label + " for table " + table.number + " (" + money(chipsTotal(chips)) + ")",
          done: function (json) { return label + " " + json.number + " prepared for table " + table.number + ": now have it verified."; }};
      },
      firstChip(kind, table));
    showTotal(form);
    form.querySelectorAll("input[name=signer]").forEach(function (input) {
      input.addEventListener("change", function () {
        // ND 99-01.3-08-05(3)(c) as floor.rules reads it: a cashier preparing initials it themselves.
        const self = byId(data.cashiers, input.value);
        const needs = kind === "fill" && !(self && self.cashier);
        form.querySelector("#pit-cashier-box").hidden = !needs;
        if (!needs || chosen(form, "cashier")) form.querySelector("#pit-pin").focus();
      });
    });
    form.querySelector("#pit-from-paper").addEventListener("change", function (event) {
      form.querySelector("#pit-paper-box").hidden = !event.target.checked;
    });
  }
  function chipsTotal(chips) {  // a quantity mistyped counts nothing (the server refuses it)
    return chips.reduce(function (sum, c) { return sum + c.denomination * (wholeChips(String(c.quantity)) || 0); }, 0);
  }
  function wholeChips(text) { return /^\d+$/.test(text) ? parseInt(text, 10) : null; }  // "20" -> 20; "2O" -> null

  // A table fee (WA-BJ: on a time basis, by direct collection): the table's last fee repeated by
  // default (basis, minutes, rate, seats or players), so a collection is a badge and a PIN.
  function cents(text) {  // "2", "2.5", "$2.50" -> 250; anything else -> null (never through a float)
    const m = /^\s*\$?(\d{1,7})(?:\.(\d{1,2}))?\s*$/.exec(text || "");
    return m ? parseInt(m[1], 10) * 100 + parseInt(((m[2] || "") + "00").slice(0, 2), 10) : null;
  }
  function dollarsText(c) { return Math.floor(c / 100) + "." + String(c % 100).padStart(2, "0"); }
  function fee(tableId) {
    const table = byId(data.tables, tableId);
    const step = data.fee;
    if (!table || !step) return;
    const last = step.last[String(table.id)] || step.last.site || {};  // a table's first fee: the site's terms
    const bases = h("div", {class: "d-flex flex-wrap gap-2", role: "radiogroup", "aria-label": "Basis"});
    step.bases.forEach(function (b, i) {
      const id = "pit-fee-basis-" + b.value;
      bases.appendChild(h("input", {type: "radio", class: "btn-check", name: "basis", id: id, value: b.value,
        autocomplete: "off", checked: last.basis ? last.basis === b.value : i === 0}));
      bases.appendChild(h("label", {class: "btn btn-outline-secondary", for: id, text: b.label}));
    });
    function box(id, label, value, mode) {
      return h("div", {class: "col-4"}, [
        h("label", {class: "form-label fw-semibold mb-0", for: id, text: label}),
        h("input", {type: "text", inputmode: mode, id: id, class: "form-control form-control-lg text-end",
          value: value, autocomplete: "off"}),
      ]);
    }
    const amount = h("p", {class: "fs-5 fw-bold", id: "pit-fee-amount"});
    const form = open("Fee · Table " + table.number, step.rule + ": fees assessed only on a time basis and collected by the direct collection method.",
      [h("fieldset", {class: "mb-2", id: "pit-fee-basis"}, [h("legend", {class: "form-label fw-semibold fs-6 mb-1", text: "Charged"}), bases]),
       h("div", {class: "row g-2 mb-2"}, [
         box("pit-fee-period", "Minutes", last.period_minutes || "", "numeric"),
         box("pit-fee-rate", "Rate ($)", last.rate_cents ? dollarsText(last.rate_cents) : "", "decimal"),
         box("pit-fee-count", "Seats", last.count || "", "numeric")]),
       amount, signers(step.collectors, "Who collects it"), pinField()],
      "Record the fee",
      function (f) {
        const typed = f.querySelector("#pit-fee-rate").value;
        const rate = cents(typed);
        // The service's bounds and their rule (fees.services.rate_bounds), said of a rate that is not money.
        if (rate === null) { showErrors(f, [step.rate_bounds + "; got \"" + typed.trim() + "\", not dollars and cents (for example 2.50)."]); return null; }
        const basis = f.querySelector("input[name=basis]:checked");
        const body = {table: table.id, basis: basis ? basis.value : "", rate_cents: rate,
          period_minutes: f.querySelector("#pit-fee-period").value.trim(), count: f.querySelector("#pit-fee-count").value.trim()};
        const total = rate * (parseInt(body.count, 10) || 0);
        return {url: "/api/v1/fee-collections/", body: body, timeField: "collected_at",
          label: "Fee at table " + table.number + " (" + money(total) + ")",
          done: function (json) {
            // The table's last fee at once, before the board's refresh brings the same from the server.
            if (data.fee) data.fee.last[String(table.id)] = {basis: json.basis, period_minutes: json.period_minutes, rate_cents: json.rate_cents, count: json.count};
            return "Fee of " + money(json.amount_cents) + " collected at table " + table.number + ".";
          }};
      },
      last.basis ? "#pit-fee-count" : "#pit-fee-period");
    function show() {
      const rate = cents(form.querySelector("#pit-fee-rate").value);
      const count = parseInt(form.querySelector("#pit-fee-count").value, 10);
      amount.textContent = rate !== null && count > 0 ? "Amount " + money(rate * count) : "Amount: the rate times the count";
    }
    ["#pit-fee-rate", "#pit-fee-count"].forEach(function (sel) { form.querySelector(sel).addEventListener("input", show); });
    function counted() {  // what the count counts, by the basis chosen
      const basis = form.querySelector("input[name=basis]:checked");
      form.querySelector("label[for=pit-fee-count]").textContent = basis && basis.value === "per_player" ? "Players" : "Seats";
    }
    form.querySelectorAll("input[name=basis]").forEach(function (input) { input.addEventListener("change", counted); });
    counted();
    show();
    document.activeElement.select();  // the count (or the minutes, at a table's first fee): typed over
    signerFocus(form);
  }

  function slipStep(slipId) {
    const slip = byId(data.slips, slipId);
    if (!slip) return false;
    const status = localStatus[slip.id] || slip.status;
    const base = "/api/v1/" + slip.kind + "-slips/" + slip.id + "/";
    const title = slip.label + " · Table " + slip.table_number + " · " + money(slip.total_cents);
    if (status === "issued" && !open.unverified) {
      const fields = [signers(slip.verifiers, "Who verifies (not the preparer, not dealing)")];
      if (slip.unverified_allowed && slip.receivers.length) {
        const other = h("button", {type: "button", class: "btn btn-link px-0 mb-2", id: "pit-receive-unverified",
          text: "Nobody can verify: receive unverified…"});
        other.addEventListener("click", function () { open.unverified = true; slipStep(slipId); open.unverified = false; });
        fields.push(other);
      }
      fields.push(pinField());
      signerFocus(open(title, "Verify the chips and initial the original.", fields, "Verify", function () {
        return {url: base + "verify/", body: {}, timeField: "verified_at", slip: slip.id, status: "verified",
          label: "Verify " + slip.label, done: function () { return slip.after_verify; }};
      }));
      return true;
    }
    const unverified = status === "issued";
    const fields = [signers(slip.receivers, slip.kind === "fill" ? "The dealer at the table receives the copy" : "Who receives the copy (cashier)", slip.receiver)];
    if (unverified) {
      fields.push(h("div", {class: "mb-3"}, [
        h("label", {class: "form-label fw-semibold", for: "pit-unverified-reason", text: "Why is it received unverified? (an exception, shown on the daily report)"}),
        h("textarea", {class: "form-control", id: "pit-unverified-reason", rows: "2", maxlength: "2000"}),
      ]));
    }
    fields.push(pinField());
    signerFocus(open(title, unverified ? "Nobody who could verify is on duty: receiving unverified is an exception." : "Check the chips and initial the copy.",
      fields, unverified ? "Receive unverified" : "Receive", function (f) {
        const body = {};
        if (unverified) body.unverified_reason = f.querySelector("#pit-unverified-reason").value;
        return {url: base + "receive/", body: body, timeField: "received_at", slip: slip.id, status: "received",
          label: "Receive " + slip.label, done: function () { return slip.label + " received."; }};
      }, unverified ? "#pit-unverified-reason" : null));
    return true;
  }

  // Seat a dealer, or change the dealer: at a change, the tray counted (optional, as on the
  // dealer page: the outgoing shift's closer and the incoming one's opener) and, where the site
  // exchanges its drop boxes at each dealer change (floor.pit_terminal.box_removal), the table's
  // box removed by the same act before the new shift begins, credited to the outgoing dealer's
  // shift: the escort and the key holder tapped (the only count team member preselected), the
  // storage place as the removal pages propose it, the shift manager's one PIN. A table with no
  // box left to remove says why and offers nothing to send. No dealer free: said, and nothing to send.
  function seat(table) {
    const title = (table.shift ? "Change the dealer at table " : "Seat a dealer at table ") + table.number;
    const free = data.dealers.filter(function (d) { return !d.dealing; });
    if (!free.length) return open(title, data.no_dealer_to_seat, [], null, null);
    const change = Boolean(table.shift);
    const removal = change && data.box_at_change;
    const box = removal ? removal.tables[String(table.id)] : null;
    if (removal && box && box.refusal) {
      return open(title, null, [h("div", {class: "alert alert-danger", id: "pit-box-refusal", role: "alert", text: box.refusal})], null, null);
    }
    const fields = [];
    if (removal) {
      const whose = table.dealer ? table.dealer.name + "'s shift" : "the outgoing dealer's shift";
      fields.push(h("div", {class: "alert alert-warning py-2", id: "pit-box-at-change", role: "alert"}, [
        h("p", {class: "mb-1", text: removal.note}),
        h("p", {class: "mb-0 fw-semibold", id: "pit-box-removed", text: "Removed with this change: " + box.boxes.join(", ") + ", credited to " + whose + "."}),
      ]));
    }
    // The tray first, its largest chip focused: its counts typed, the dealer's badge tapped and
    // the PIN is next, as without a count (no tap to reach the count, none to leave it).
    const tray = change && data.tray_at_change;
    if (tray) {
      fields.push(h("fieldset", {class: "mb-1", id: "pit-tray"}, [
        h("legend", {class: "form-label fw-semibold fs-6 mb-1", text: "Tray count at the change (optional)"}),
      ].concat(chipFields())));
    }
    if (removal) {
      const keys = removal.key_holders.length === 1 ? removal.key_holders[0].id : null;
      fields.push(badges("escort", "Box escorted by (another employee than the shift manager)", removal.escorts, null));
      fields.push(badges("key-holder", "Key to the box's contents held by (count team)", removal.key_holders, keys));
      if (box.two_locks) fields.push(badges("second-key-holder", "Key to the second lock held by (the other count team member)", removal.key_holders, null));
      fields.push(h("div", {class: "mb-3"}, [
        h("label", {class: "form-label fw-semibold", for: "pit-storage-place", text: "Box stored in"}),
        h("input", {type: "text", id: "pit-storage-place", class: "form-control", maxlength: "120", value: removal.storage_place || "", autocomplete: "off"}),
      ]));
    }
    fields.push(badges("dealer", "Dealer", free, null, function () { form.querySelector("input[name=signer]:checked") ? form.querySelector("#pit-pin").focus() : null; }));
    fields.push(signers(data.supervisors, "Shift manager"), pinField());
    const form = open(title, null, fields, removal ? "Remove the box and seat the dealer" : "Seat the dealer", function (f) {
      const dealer = chosen(f, "dealer");
      const body = {table: table.id};
      if (dealer) body.dealer = dealer.id;
      const chips = f.querySelector("#pit-tray") ? typedChips(f) : [];
      if (chips.length) body.chips = chips;
      const counted = chips.length ? "; the tray counted " + money(chipsTotal(chips)) + " at the change" : "";
      let removed = "";
      if (removal) {
        body.remove_box = true;
        const escort = chosen(f, "escort"), keyHolder = chosen(f, "key-holder"), second = chosen(f, "second-key-holder");
        if (escort) body.box_escorted_by = escort.id;
        if (keyHolder) body.box_key_holder = keyHolder.id;
        if (second) body.box_second_key_holder = second.id;
        body.box_storage_place = f.querySelector("#pit-storage-place").value;
        removed = "; " + box.boxes.join(", ") + " removed to " + body.box_storage_place.trim();
      }
      return {url: "/api/v1/dealer-shifts/", body: body, label: "Seat at table " + table.number,
        done: function () { return (dealer ? dealer.initials : "The dealer") + " is dealing at table " + table.number + removed + counted + "."; }};
    }, tray ? ".pit-qty" : null);
    if (tray) showTotal(form);
    return signerFocus(form);
  }

  function simple(title, intro, people, legend, submitLabel, url, body, done) {
    signerFocus(open(title, intro, [signers(people, legend), pinField()], submitLabel, function () {
      return {url: url, body: body, label: title, done: function () { return done; }};
    }));
  }

  function action(button) {
    const what = button.dataset.pitAction;
    const table = byId(data.tables, button.dataset.table);
    if (what === "prepare") return prepare(button.dataset.kind, button.dataset.table);
    if (what === "fee") return fee(button.dataset.table);
    if (what === "open-day") {
      return simple("Open gaming day " + data.next_gaming_date, null, data.supervisors, "Shift manager",
        "Open the day", "/api/v1/gaming-days/", {site: data.site, gaming_date: data.next_gaming_date},
        "Gaming day " + data.next_gaming_date + " is open.");
    }
    if (what === "open-table") {
      const intro = table.has_last_count ? "The opener is recorded as the table's last closer, line for line."
        : "This table has no previous count: its opener is counted on the floor's opener form.";
      return simple("Open table " + table.number, intro, data.supervisors, "Shift manager", "Open with the last closer",
        "/api/v1/table-inventories/", {table: table.id, kind: "opener", same_as_last_closer: true},
        "Table " + table.number + " is open.");
    }
    if (what === "seat") return seat(table);
    if (what === "relieve") {
      return simple("Relieve the dealer at table " + table.number, table.dealer ? table.dealer.name + " leaves the table." : null,
        data.supervisors, "Shift manager", "Relieve", "/api/v1/dealer-shifts/" + table.shift + "/end/", {},
        "The dealer left table " + table.number + ".");
    }
    if (what === "card-check") {
      // A card check, where the site's pack states it: the person who checked taps their
      // badge (the dealer seated there preselected) and types their PIN; the check is recorded as theirs.
      const decks = button.dataset.kind === "decks_approved";
      const people = decks ? data.dealers : data.dealers.concat(data.supervisors.filter(function (p) { return !byId(data.dealers, p.id); }));
      const title = (decks ? "Decks approved at table " : "Shoe inspected at table ") + table.number;
      return signerFocus(open(title, button.dataset.intro, [signers(people, decks ? "Dealer" : "Dealer or shift manager", table.dealer_id), pinField()],
        decks ? "Decks approved" : "Shoe inspected", function () {
          return {url: "/api/v1/card-checks/", body: {table: table.id, kind: button.dataset.kind}, label: title,
            done: function () { return title + "."; }};
        }));
    }
    if (what === "on-duty") {
      const off = data.duty.filter(function (p) { return !p.on_duty && !p.dealing; });
      return simple("On duty", "A pit boss or shift manager coming on duty to verify slips signs in.", off,
        "Who comes on duty", "On duty", "/api/v1/duty-periods/", {site: data.site}, "On duty.");
    }
    if (what === "off-duty") {
      const person = byId(data.duty, button.dataset.person);
      if (!person.period) {
        return flash(person.initials + " is presumed on duty as the shift manager who opened the day; they sign in and out to change it.");
      }
      signerFocus(open(person.initials + " goes off duty", null, [signers([person], "Who goes off duty"), pinField()],
        "Off duty", function () {
          return {url: "/api/v1/duty-periods/" + person.period + "/end/", body: {}, label: person.initials + " off duty",
            done: function () { return person.initials + " is off duty."; }};
        }));
    }
  }

  document.addEventListener("click", function (event) {
    if (!data) return;
    const slipLink = event.target.closest("a.pit-slip");
    if (slipLink && slipStep(slipLink.dataset.slip)) { event.preventDefault(); return; }
    const button = event.target.closest("[data-pit-action]");
    if (button) { event.preventDefault(); action(button); }
  });

  // --- Sending, and the outbox ------------------------------------------------------------------
  function post(request) {
    return fetch(request.url, {
      method: "POST",
      credentials: "same-origin",
      headers: {"Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf,
        "Idempotency-Key": request.key},
      body: JSON.stringify(request.body),
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (json) {
        return {ok: response.ok, status: response.status, json: json};
      });
    });
  }
  function messages(json) {
    if (json.detail) return [String(json.detail)];
    return Object.entries(json).map(function ([field, list]) {
      return (Array.isArray(list) ? list : [list]).map(String).join(" ");
    });
  }
  function queue(request) {
    if (request.timeField && !request.body[request.timeField]) request.body[request.timeField] = localIso(new Date());
    outbox.push(request);
    if (request.slip) localStatus[request.slip] = request.status;
    drawOutbox();
    close();
    flash(request.label + ": waiting to send (the network is down).");
  }
  function submit(request, form) {
    request.key = key();
    const slipStepOrPrepare = Boolean(request.timeField);
    if (!navigator.onLine && slipStepOrPrepare) return queue(request);
    form.querySelector("#pit-submit").disabled = true;
    post(request).then(function (answer) {
      if (answer.ok) { close(); flash(request.done(answer.json)); refresh(); return; }
      if (answer.status >= 500 && slipStepOrPrepare) { outbox.push(request); drawOutbox(); close(); return; }
      form.querySelector("#pit-submit").disabled = false;
      showErrors(form, messages(answer.json));
    }, function () {
      // No answer: it may or may not have arrived. The same key and body go again, so it is
      // written once either way.
      if (slipStepOrPrepare) { outbox.push(request); if (request.slip) localStatus[request.slip] = request.status; drawOutbox(); close(); flash(request.label + ": waiting to send."); return; }
      form.querySelector("#pit-submit").disabled = false;
      showErrors(form, ["The network is down: try again once it is back."]);
    });
  }
  function drawOutbox() {
    persist();
    outboxList.replaceChildren.apply(outboxList, outbox.map(function (r) {
      return h("li", {class: "pit-waiting", text: r.label + " · waiting to send"});
    }));
    outboxBox.hidden = outbox.length === 0;
    markQueued();
  }
  function markQueued() {  // a slip with a step waiting says so on the board
    board.querySelectorAll(".pit-slip-waiting").forEach(function (el) { el.remove(); });
    outbox.forEach(function (r) {
      const link = r.slip && board.querySelector("a.pit-slip[data-slip='" + r.slip + "']");
      if (link) link.after(h("span", {class: "badge text-bg-secondary ms-1 pit-slip-waiting", text: r.status + " · waiting to send"}));
    });
  }
  function refused(request, lines) {
    refusalList.appendChild(h("li", {class: "pit-refused", text: request.label + ": " + lines.join(" ")}));
    refusalBox.hidden = false;
  }
  function flush() {
    if (!restored || sending || !outbox.length || !navigator.onLine) return;
    sending = true;
    const request = outbox[0];
    post(request).then(function (answer) {
      sending = false;
      if (answer.status >= 500) return;
      outbox.shift();
      if (request.slip) delete localStatus[request.slip];
      if (answer.ok) flash(request.label + ": sent.");
      else refused(request, messages(answer.json));
      drawOutbox();
      refresh();
      flush();
    }, function () { sending = false; });
  }
  // --- Keeping the queue through a reload (localStorage, sealed) --------------------------------
  const store = outboxBox.dataset.store || "";
  const sealing = sealKey(outboxBox.dataset.seal);  // the AES-GCM key, or null: not kept
  let saving = Promise.resolve();
  function sealKey(seal) {
    if (!seal || !store || !window.localStorage || !window.crypto || !crypto.subtle) return Promise.resolve(null);
    return crypto.subtle.digest("SHA-256", new TextEncoder().encode(seal)).then(function (bytes) {
      return crypto.subtle.importKey("raw", bytes, "AES-GCM", false, ["encrypt", "decrypt"]);
    }).catch(function () { return null; });
  }
  function b64(bytes) { return btoa(String.fromCharCode.apply(null, new Uint8Array(bytes))); }
  function unb64(text) { return Uint8Array.from(atob(text), function (c) { return c.charCodeAt(0); }); }
  function persist() {  // writes the queue as it is now, after any earlier write
    const items = outbox.map(function (r) {
      return {key: r.key, url: r.url, body: r.body, label: r.label, slip: r.slip || null, status: r.status || null,
        timeField: r.timeField || null};
    });
    saving = saving.then(function () { return sealing; }).then(function (cryptoKey) {
      if (!cryptoKey) return;
      if (!items.length) { localStorage.removeItem(store); return; }
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const plain = new TextEncoder().encode(JSON.stringify(items));
      return crypto.subtle.encrypt({name: "AES-GCM", iv: iv}, cryptoKey, plain).then(function (sealed) {
        localStorage.setItem(store, JSON.stringify({iv: b64(iv), sealed: b64(sealed)}));
      });
    }).catch(function () {});
  }
  function restore() {
    const kept = keepsStorage() ? localStorage.getItem(store) : null;
    return sealing.then(function (cryptoKey) {
      keeps = Boolean(cryptoKey);
      if (!kept) return [];
      if (!cryptoKey) throw new Error("The queue cannot be opened here.");
      const box = JSON.parse(kept);
      return crypto.subtle.decrypt({name: "AES-GCM", iv: unb64(box.iv)}, cryptoKey, unb64(box.sealed))
        .then(function (plain) { return JSON.parse(new TextDecoder().decode(plain)); });
    }).then(function (items) {
      outbox.unshift.apply(outbox, items);  // taken before anything queued since this page opened
      items.forEach(function (r) { if (r.slip) localStatus[r.slip] = r.status; });
    }, function () {
      localStorage.removeItem(store);
      refused({label: "Steps kept on this terminal"}, ["they could not be opened and were not sent: take them again."]);
    }).then(function () {
      restored = true;
      if (volatileNote) volatileNote.hidden = keeps;
      drawOutbox();
      board.dataset.queue = "restored";  // what was kept is on the page (a test, or a look, can tell)
      flush();
    });
  }
  function keepsStorage() {
    try { return Boolean(store && window.localStorage); } catch (e) { return false; }
  }

  restore();
  window.addEventListener("online", flush);
  setInterval(flush, Number(outboxBox.dataset.retrySeconds) * 1000);  // settings.PIT_OUTBOX_RETRY_SECONDS
  window.addEventListener("beforeunload", function (event) {
    if (outbox.length && !keeps) { event.preventDefault(); event.returnValue = ""; }
  });
})();
