// Opening a count on the tablet: where the site's count team is two people, the member who picks
// their badge opens the count with the other, so the second member is chosen for them (a choice
// with one possible answer). Either field may still be changed; the server checks the two are two
// count team members (the count team rule) and the PIN is the badge holder's.
document.addEventListener("change", (event) => {
  const badge = document.getElementById("id_signer_badge");
  const partner = document.getElementById("id_partner");
  if (!badge || !partner || event.target !== badge) return;
  const members = Array.from(partner.options).filter((option) => option.value);
  if (members.length !== 2) return;
  const chosen = badge.selectedOptions[0];
  const name = chosen ? chosen.textContent.split(" · ").slice(1).join(" · ").trim() : "";
  const self = members.find((option) => option.textContent.trim() === name);
  const other = members.find((option) => option !== self);
  if (self && other && (!partner.value || partner.value === self.value)) partner.value = other.value;
});
