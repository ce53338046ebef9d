import "./app.css";

const app = document.getElementById("app");
if (app) {
  app.textContent = "warboard";
}
