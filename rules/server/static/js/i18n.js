// The page's words in the player's language: message catalogs, plurals and placeholders.
//
// Every string the page shows comes from a catalog, /static/i18n/LANG.json, loaded once
// before the first screen is drawn (no build step). The API, for every screen:
//
//   t("lobby.title")                        -> "Your trumps"
//   t("pile.caption", { count: 3, top })    -> "Pile: 3 cards · top 9♥"
//
// A catalog maps a key to a string with {name} placeholders, or, for a sentence about a
// number, to an object of plural forms keyed by the language's CLDR categories
// ({"one": "...", "few": "...", "many": "...", "other": "..."}); the form is picked by
// Intl.PluralRules from the `count` parameter. A key missing from a catalog falls back
// to English (the tests make sure none is missing).
//
// The language: the one chosen in the page (remembered in localStorage), else the first
// of the browser's languages (navigator.languages, the same list the browser sends as
// Accept-Language) that has a catalog, else English.

export const LANGUAGES = {
  en: "English",
  ro: "Română",
  fi: "Suomi",
  cs: "Čeština",
  ky: "Кыргызча",
  ru: "Русский",
};
// A pseudo-locale for the tests that look for hard-coded English: its catalog is not
// shipped; a test serves it and chooses it like any language.
const PSEUDO = "en-XA";
const STORED = "trumps.lang";

let current = "en";
let messages = {};
let english = {};
let plurals = new Intl.PluralRules("en");

async function fetchCatalog(lang) {
  const response = await fetch(`/static/i18n/${lang}.json`);
  if (!response.ok) throw new Error(`no catalog for ${lang}`);
  return response.json();
}

/** The language to show: the stored choice, else the browser's first language with a catalog. */
export function preferredLanguage() {
  const stored = localStorage.getItem(STORED);
  if (stored && (stored in LANGUAGES || stored === PSEUDO)) return stored;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in LANGUAGES) return base;
  }
  return "en";
}

/** Load the catalogs (the chosen language's and English as the fallback); call once before drawing. */
export async function loadLanguage(lang = preferredLanguage()) {
  english = await fetchCatalog("en");
  try {
    messages = lang === "en" ? english : await fetchCatalog(lang);
    current = lang;
  } catch {
    messages = english;
    current = "en";
  }
  plurals = new Intl.PluralRules(current);
  document.documentElement.lang = current;
  translatePage(document);
  return current;
}

/** The language shown now ("en", "cs", ...). */
export function language() {
  return current;
}

/** Remember `lang` as this browser's choice and draw the page again in it. */
export function chooseLanguage(lang) {
  localStorage.setItem(STORED, lang);
  location.reload();
}

/**
 * The message `key` with its {placeholders} filled from `params`; for a plural message
 * the form for `params.count` (Intl.PluralRules of the language).
 */
export function t(key, params = {}) {
  let entry = messages[key] ?? english[key];
  if (entry === undefined) return key;
  if (typeof entry === "object") {
    const count = Number(params.count ?? 0);
    entry = entry[plurals.select(count)] ?? entry.other;
  }
  return entry.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Whether the catalog has `key` (for optional messages, such as a refusal's own sentence). */
export function has(key) {
  return key in messages || key in english;
}

/** A number written the language's way (digit grouping). */
export function number(value) {
  return new Intl.NumberFormat(current).format(value);
}

/** A Unix time (seconds) as the language writes the time of day, hours and minutes ("14:32", "2:32 PM"). */
export function clockTime(unixSeconds) {
  return new Intl.DateTimeFormat(current, { hour: "numeric", minute: "2-digit" }).format(new Date(unixSeconds * 1000));
}

/**
 * Translate the static page: an element with data-i18n="key" gets the message as its
 * text; data-i18n-attr="aria-label:key;title:key" sets attributes.
 */
export function translatePage(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      node.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

/** The language picker in the top bar (#language, on every page): each language under its own name. */
export function languagePicker(current) {
  const select = document.getElementById("language");
  if (!select) return;
  select.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    option.selected = code === current;
    return option;
  }));
  select.addEventListener("change", () => chooseLanguage(select.value));
}
