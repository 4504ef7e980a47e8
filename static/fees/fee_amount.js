// The fee form's amount, shown as the rate times the count while they are typed (display only:
// left blank, the server works the same product out; given, it must equal it).
(function () {
  function cents(text) {
    const match = /^\s*(\d+)(?:\.(\d{1,2}))?\s*$/.exec(text);
    return match ? parseInt(match[1], 10) * 100 + parseInt((match[2] || "0").padEnd(2, "0"), 10) : null;
  }
  function show() {
    const rate = document.getElementById("id_rate_cents");
    const count = document.getElementById("id_count");
    const amount = document.getElementById("id_amount_cents");
    if (!rate || !count || !amount) return;
    const each = cents(rate.value);
    const many = /^\s*\d+\s*$/.test(count.value) ? parseInt(count.value, 10) : null;
    const total = each === null || many === null ? null : each * many;
    amount.placeholder = total === null ? "rate × count" : (total / 100).toFixed(2) + " (rate × count)";
  }
  document.addEventListener("input", function (event) {
    if (event.target.id === "id_rate_cents" || event.target.id === "id_count") show();
  });
  document.addEventListener("DOMContentLoaded", show);
})();
