// The calculator's "More opponents" without a round trip: a new empty row from the template.
// Without JavaScript the button asks the server for the same form with more rows.
(function () {
  var button = document.getElementById("more-opponents");
  var rows = document.getElementById("opponent-rows");
  var template = document.getElementById("opponent-template");
  var total = document.getElementById("id_o-TOTAL_FORMS");
  var max = document.getElementById("id_o-MAX_NUM_FORMS");
  if (!button || !rows || !template || !total) return;
  button.addEventListener("click", function (event) {
    var count = parseInt(total.value, 10);
    if (max && count >= parseInt(max.value, 10)) return;
    event.preventDefault();
    var row = template.content.firstElementChild.cloneNode(true);
    row.querySelectorAll("[name], [id], [for]").forEach(function (node) {
      ["name", "id", "for"].forEach(function (attribute) {
        var value = node.getAttribute(attribute);
        if (value) node.setAttribute(attribute, value.replace("__prefix__", count));
      });
    });
    rows.appendChild(row);
    total.value = count + 1;
    row.querySelector("input").focus();
  });
})();
