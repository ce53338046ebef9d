// Refusals and errors in German, by their stable code (the server's
// sentences are the English wording). An entry is a sentence, or a pair:
// the sentence without specifics, and one naming the spaces, units and
// powers the server sends as `args` (used only where it sent them all).

export const REFUSALS_DE: Record<string, string | [string, string]> = {
  "chat/empty": "Die Nachricht ist leer.",
  "chat/too-long": "Eine Nachricht hat höchstens 500 Zeichen.",
  "chat/bad-text": "Eine Nachricht darf Zeilenumbrüche, aber keine anderen Steuerzeichen enthalten.",
  "chat/too-fast": "Höchstens 5 Nachrichten in 10 Sekunden: warte einen Moment.",
  "auth/not-a-player": "Dieses Konto hält keine Macht in dieser Partie.",
};
