// Refusals and errors in German, by their stable code (the server's
// sentences are the English wording). An entry is a sentence, or a pair:
// the sentence without specifics, and one naming the spaces, units and
// powers the server sends as `args` (used only where it sent them all).
// Grouped by the code's prefix, sorted; rule citations as in the English.

export const REFUSALS_DE: Record<string, string | [string, string]> = {
  // Actions in general
  "action/malformed": "Das ist keine gültige Aktion.",
  "action/no-such-units": "Die genannten Einheiten gibt es dort nicht.",
  "action/not-your-turn": ["Diese Macht darf diese Aktion jetzt nicht ausführen.", "{power} darf diese Aktion jetzt nicht ausführen."],
  "action/who": "Die Aktion muss nennen, welche Macht sie ausführt (`power`).",

  // Accounts and seats
  "auth/bad-name": "Ein Name besteht aus 3 bis 32 Buchstaben, Ziffern, `_` oder `-`.",
  "auth/bad-password": "Ein Passwort hat mindestens 8 Zeichen (und höchstens 1024 Bytes).",
  "auth/banned": "Dieses Konto ist gesperrt.",
  "auth/locked": "Zu viele fehlgeschlagene Anmeldungen: versuche es in ein paar Minuten noch einmal.",
  "auth/name-taken": "Dieser Name ist schon vergeben.",
  "auth/not-a-player": "Dieses Konto hält keine Macht in dieser Partie.",
  "auth/not-your-power": "Diese Aktion steht dir nicht zu: die Macht, die jetzt handelt, spielt ein anderer Spieler oder der Computer.",
  "auth/required": "Bitte melde dich an: du bist nicht (mehr) angemeldet, oder Name und Passwort passen nicht zusammen.",
  "auth/too-many-connections": "Ein Konto darf nur begrenzt viele Verbindungen gleichzeitig halten.",
  "auth/too-many-games": "Ein Konto darf nur begrenzt viele selbst angelegte Partien offen oder im Spiel haben.",
  "auth/unknown-account": "Dieses Konto gibt es nicht.",

  // Battles
  "battle/air-retreat": "Flugzeuge ziehen sich nicht in ein Feld zurück: sie bleiben und fliegen in der Nichtkampfbewegung zu einem Landeplatz (DAAK 4.1(b)).",
  "battle/another-in-progress": "Zuerst muss die laufende Schlacht zu Ende ausgetragen werden.",
  "battle/casualties-first": "Zuerst müssen die Verluste gewählt werden.",
  "battle/casualty-count": "Es sind genau so viele Verluste zu nehmen wie Treffer, nicht mehr und nicht weniger: jeder Treffer, der angewendet werden kann, wird angewendet.",
  "battle/casualty-targets":
    "Diese Verluste passen nicht zu den Treffern: eine Einheit ist öfter genannt, als sie Trefferpunkte hat, oder die Treffer dürfen sie nicht treffen (U-Boot-Treffer nie Flugzeuge, Flak trifft nur Flugzeuge).",
  "battle/endless": "Diese Schlacht endet mit diesen Würfeln nie.",
  "battle/no-battle-there": "Dort wartet keine Schlacht darauf, ausgetragen zu werden.",
  "battle/no-casualties-due": "Es warten keine Treffer darauf, dass Verluste gewählt werden.",
  "battle/no-retreat": "Aus diesem Kampf ist kein Rückzug möglich.",
  "battle/no-retreat-amphibious": "Aus einer Landung von See zieht sich keine Landeinheit zurück (nach DAAK auch kein Flugzeug).",
  "battle/no-retreat-from-nobody": "Ein Rückzug setzt voraus, dass noch mindestens ein Verteidiger übrig ist.",
  "battle/no-retreat-space": "Es gibt kein Feld, in das sich die Angreifer zurückziehen können.",
  "battle/no-units": "Nenne die U-Boote, die abtauchen oder sich zurückziehen.",
  "battle/none": "Gerade wartet keine Schlacht auf eine Entscheidung; eine Schlacht wählst du mit `at`.",
  "battle/not-a-casualty": "Diese Einheit kann nicht als Verlust gewählt werden.",
  "battle/not-combat-phase": "Schlachten werden in der Kampfphase ausgetragen.",
  "battle/not-now": "Diese Entscheidung steht jetzt nicht an: sie kommt erst nach einer vollen Kampfrunde.",
  "battle/not-your-sub": "Jetzt dürfen sich nur die U-Boote der entscheidenden Seite in dieser Schlacht zurückziehen.",
  "battle/planes-to-relocate": [
    "Zuerst fliegen die Flugzeuge, die ohne Schiff geblieben sind, zu einem ihrer nächstgelegenen Landeplätze (ALT L40).",
    "Zuerst fliegen die Flugzeuge ohne Schiff ({power}) zu einem ihrer nächstgelegenen Landeplätze: ein `move` durch {power} (ALT L40).",
  ],
  "battle/retreat-space": "Dorthin ist kein Rückzug möglich: alle zurückweichenden Einheiten ziehen gemeinsam in ein erlaubtes befreundetes Nachbarfeld.",
  "battle/retreat-where": "Nenne das Feld, in das der Rückzug geht.",
  "battle/sea-battle-first": "Zuerst wird die Seeschlacht ausgetragen, dann die Landung aus dieser Seezone.",
  "battle/submerge-in-place": "U-Boote tauchen dort ab, wo sie sind: nenne keine Seezone.",
  "battle/withdraw-where": "In Classic ziehen sich U-Boote in eine Seezone zurück: nenne sie.",
  "battle/withdraw-zone": "In diese Seezone können sich die U-Boote jetzt nicht zurückziehen.",

  // Sealed bids for sides
  "bid/after-reveal": "Gebote werden versiegelt, bevor eines aufgedeckt wird: seit ein Gebot aufgedeckt ist, lässt sich keines mehr ändern.",
  "bid/bad-commitment": "Die Verpflichtung (`commitment`) besteht aus 64 Hex-Ziffern (32 Bytes).",
  "bid/bad-ipcs": "Ein Gebot ist eine ganze Zahl von IPCs zwischen 0 und 1.000.",
  "bid/bad-nonce": "Die Geheimzahl (`nonce`) besteht aus 64 Hex-Ziffern (32 Bytes).",
  "bid/insecure-page": "Ein Gebot zu versiegeln braucht eine sichere Seite (HTTPS, oder der Server auf diesem Rechner).",
  "bid/commitment-mismatch": "Das aufgedeckte Gebot ist nicht das versiegelte: Gebot und Geheimzahl öffnen die Verpflichtung nicht.",
  "bid/no-bid": "Diese Partie wurde nicht mit einem Gebot um die Seiten angelegt.",
  "bid/not-a-bidder": "Dieses Konto ist keiner der beiden Bieter.",
  "bid/not-sealed": "Beide Gebote werden versiegelt, bevor eines aufgedeckt wird.",
  "bid/not-two-sides": "Ein Gebot entscheidet, wer die Achsenmächte und wer die Alliierten spielt: die Mächte dieser Partie bilden nicht genau diese zwei Teams.",
  "bid/own-opponent": "Ein Gebot geht gegen einen anderen Spieler: nenne jemand anderen als Gegner.",
  "bid/revealed-twice": "Dieses Gebot ist schon aufgedeckt.",
  "bid/seats-by-bid": "Die Plätze dieser Partie gehen an die beiden Bieter, sobald ihre Gebote aufgedeckt sind.",
  "bid/unknown-rule": "Diese Gebotsregel gibt es nicht (Regeln: lower-axis).",
  "bid/with-seats": "Eine Partie mit Gebot bekommt ihre Plätze aus dem Gebot: `bid` oder `seats`, nicht beides.",

  // Battle calculator
  "calc/bad-battle": "Diese Schlacht lässt sich nicht lesen: erst die Angreifer, dann `vs`, dann die Verteidiger.",
  "calc/refused": "Diese Schlacht kann der Rechner nicht berechnen.",
  "calc/too-long": "Eine Schlacht ist höchstens 1.000 Zeichen lang.",

  // Chat
  "chat/bad-text": "Eine Nachricht darf Zeilenumbrüche, aber keine anderen Steuerzeichen enthalten.",
  "chat/empty": "Die Nachricht ist leer.",
  "chat/too-fast": "Höchstens 5 Nachrichten in 10 Sekunden: warte einen Moment.",
  "chat/too-long": "Eine Nachricht hat höchstens 500 Zeichen.",

  // Correspondence games' clocks
  "clock/bad-days": "Urlaub wird in Tagen genommen: 1 bis 60.",
  "clock/bad-move-days": "Die Zeit je Zug ist 1, 2, 3, 5, 7, 10 oder 14 Tage.",
  "clock/bad-vacation-days": "Urlaubstage gibt es 0 bis 60, und nur mit einer Zeit je Zug.",
  "clock/no-clock": "Diese Partie hat keine Uhr: sie wurde ohne Zeit je Zug angelegt.",
  "clock/no-vacation-left": "So viele Urlaubstage sind nicht mehr übrig.",
  "clock/not-expired": "Die Zeit des Gegners ist noch nicht abgelaufen.",
  "clock/not-taken-over": "Der Computer hält keine Plätze, die dir gehören.",
  "clock/not-yours": "Das steht dir nicht zu: es ist deine eigene Zeit, die abgelaufen ist, oder es sind nicht deine Plätze.",
  "clock/team-game": "In einer Partie mit Teams wird kein Sieg beansprucht: der Computer übernimmt die Plätze.",

  // Combat phase
  "combat/battles-remain": [
    "Jede angesagte Schlacht muss ausgetragen sein, bevor die Kampfphase endet.",
    "Jede angesagte Schlacht muss ausgetragen sein, bevor die Kampfphase endet; noch offen: {spaces}.",
  ],

  // Corrections by consent
  "correction/not-an-action": "Dieser Eintrag ist eine Notiz des Tisches, keine Aktion, die sich zurücknehmen ließe.",
  "correction/not-open": "Dieser Korrekturvorschlag ist nicht mehr offen (beantwortet, oder das Spiel ging weiter) oder war keiner.",
  "correction/out-of-reach": "So weit reicht eine Korrektur nicht zurück: höchstens bis zum ersten Eintrag nach der letzten Korrektur.",
  "correction/own-side": "Eine Korrektur stimmt die andere Seite zu, nicht die Seite, die sie vorgeschlagen hat.",
  "correction/pending": "Ein Korrekturvorschlag ist schon offen: er wird angenommen oder abgelehnt, bevor ein neuer kommt.",

  // Patriotic War (Europe)
  "convert/in-battle": "Einheiten wechseln zwischen den Schlachten die Seite, nicht während eine auf eine Entscheidung wartet.",
  "convert/no-units": "Nenne die verbündeten Einheiten, die übernommen werden sollen.",
  "convert/not-allied": [
    "Übernommen werden nur verbündete Land- und Lufteinheiten an diesem Ort, jede einmal.",
    "Übernommen werden nur verbündete Land- und Lufteinheiten in {at}, jede einmal.",
  ],
  "convert/not-allowed": [
    "Diese Macht darf in diesem Regelwerk keine Einheiten ihrer Verbündeten übernehmen (der Große Vaterländische Krieg gehört zu Europe, für die Sowjetunion).",
    "{power} darf in diesem Regelwerk keine Einheiten der Verbündeten übernehmen (der Große Vaterländische Krieg gehört zu Europe, für die Sowjetunion).",
  ],
  "convert/where": [
    "Verbündete Einheiten werden nur in einem eigenen Gebiet mit eigenem Industriekomplex übernommen, nie auf See (EUROPE FAQ: Second Edition Rules).",
    "{at} ist kein eigenes Gebiet mit eigenem Industriekomplex: nur dort werden verbündete Einheiten übernommen, nie auf See (EUROPE FAQ: Second Edition Rules).",
  ],

  // Dice
  "dice/exhausted": "Es sind keine Würfel mehr übrig.",
  "dice/needed": "Diese Aktion braucht mehr Würfel, als bereitliegen: gib weitere mit dem Befehl `dice` ein und versuche es noch einmal.",
  "dice/stuck": "Die Würfel zeigen immer wieder Entwicklungen, die schon vorhanden sind.",

  // The rules engine
  "engine/internal": "Interner Fehler im Regelkern; die Partie ist unverändert.",

  // Games on the server
  "game/duplicate-client-id": "Eine Aktion mit dieser Kennung (`client_id`) wurde schon verbucht.",
  "game/not-started": "Die Partie wartet noch darauf, dass ihre freien Plätze besetzt werden.",
  "game/over": "Die Partie ist vorbei.",
  "game/seat-taken": "Dieser Platz ist nicht frei (besetzt, oder die Partie hat schon begonnen).",
  "game/stale": "Die Partie ist inzwischen weiter: lade sie neu und versuche es noch einmal.",
  "game/unknown": "Diese Partie gibt es nicht.",
  "game/unknown-seat": "Diese Partie oder diesen Platz gibt es nicht.",

  // Interceptors (bombing raids)
  "intercept/no-raid": "Dort wurde in diesem Zug kein Bombenangriff angesagt.",
  "intercept/no-units": "Nenne die Jäger, die abfangen.",
  "intercept/not-allowed": "In diesem Regelwerk fangen Jäger keine Bombenangriffe ab.",
  "intercept/not-now": "Abfangjäger werden in der Kampfphase des Angreifers genannt, bevor eine Schlacht oder ein Bombenangriff ausgetragen wird.",
  "intercept/relocate-early": "Abfangjäger ziehen erst weg, wenn alle Schlachten des Angreifers ausgetragen sind.",
  "intercept/relocate-landing": "Dort gibt es weder ein befreundetes Gebiet noch einen Flugzeugträger mit Platz.",
  "intercept/relocate-not-captured": "Dieses Gebiet wurde nicht erobert: seine Abfangjäger landen dort.",
  "intercept/relocate-one-space": "Abfangjäger eines eroberten Gebiets ziehen genau ein Feld weit, nicht weiter.",
  "intercept/relocate-who": "Jetzt ziehen nur die Abfangjäger der betroffenen Macht aus diesem Gebiet.",
  "intercept/which": "Abfangen dürfen nur die eigenen Jäger des Verteidigers, die schon dort stehen, jeder einmal.",

  // The ladder
  "ladder/unknown-family": "Diese Rangliste gibt es nicht (classic, europe, anniversary, alternative).",
  "ladder/unknown-player": "Einen Spieler dieses Namens gibt es nicht.",

  // Turn mail
  "mail/bad-address": "Das ist keine Mail-Adresse.",
  "mail/no-address": "Für Zug-Mails braucht das Konto eine Mail-Adresse.",
  "mail/unknown-token": "Dieser Abmeldelink ist unbekannt.",

  // Movement
  "move/aa-cannot-attack": "Flak greift nicht an und erobert keine Gebiete: bewege sie in der Nichtkampfbewegung (DAAK 3.1(f)).",
  "move/after-boarding": [
    "Diese Einheit hat in diesem Zug einen Transporter bestiegen: das war ihre Bewegung (DAAK 3.2(b)).",
    "Diese Einheit ({unit}) hat in diesem Zug einen Transporter bestiegen: das war ihre Bewegung (DAAK 3.2(b)).",
  ],
  "move/after-drop": [
    "Dieser Bomber hat in diesem Zug Fallschirmjäger abgesetzt: damit endet seine Kampfbewegung (AA50 errata p. 12).",
    "Diese Einheit ({unit}) hat in diesem Zug Fallschirmjäger abgesetzt: damit endet ihre Kampfbewegung (AA50 errata p. 12).",
  ],
  "move/after-unloading": [
    "Diese Einheit ist in diesem Zug von einem Transporter an Land gegangen und zieht nicht weiter (DAAK 3.2(b)).",
    "Diese Einheit ({unit}) ist in diesem Zug von einem Transporter an Land gegangen und zieht nicht weiter (DAAK 3.2(b)).",
  ],
  "move/amphibious-no-retreat": "Panzer ziehen sich nicht aus einer Landung von See zurück, auch nicht durch Wegziehen zwischen den Kampfrunden (ALT L46).",
  "move/battle-open": [
    "Zwischen den Kampfrunden ziehen Einheiten nur in das umkämpfte Feld hinein oder aus ihm heraus (ALT L46).",
    "Zwischen den Kampfrunden ziehen Einheiten nur in {at} hinein oder aus {at} heraus (ALT L46).",
  ],
  "move/before-loading": [
    "Diese Einheit hat sich in diesem Zug schon bewegt und darf keinen Transporter mehr besteigen (DAAK 3.2(b)).",
    "Diese Einheit ({unit}) hat sich in diesem Zug schon bewegt und darf keinen Transporter mehr besteigen (DAAK 3.2(b)).",
  ],
  "move/blitz-noncombat": [
    "Das ist feindliches Gebiet: es darf nur in der Kampfbewegung betreten werden; ein Blitz wird in der Kampfbewegung angesagt und beendet (DAAK 3.6(a)).",
    "{at} ist feindliches Gebiet: es darf nur in der Kampfbewegung betreten werden; ein Blitz wird in der Kampfbewegung angesagt und beendet (DAAK 3.6(a)).",
  ],
  "move/blitz-stopped": [
    "Ein feindlicher Industriekomplex oder eine feindliche Flak stoppt den Blitz der Panzer (Option factories_and_aa_stop_blitz).",
    "Der feindliche Industriekomplex oder die feindliche Flak in {at} stoppt den Blitz der Panzer (Option factories_and_aa_stop_blitz).",
  ],
  "move/board-beside-submarines": [
    "Feindliche U-Boote in der Seezone verhindern in der Kampfbewegung das Beladen von Transportern (EUROPE FAQ: Submarines).",
    "Feindliche U-Boote in {at} verhindern in der Kampfbewegung das Beladen von Transportern (EUROPE FAQ: Submarines).",
  ],
  "move/board-in-battle-zone": [
    "In der Kampfbewegung besteigen Truppen einen Transporter in einer umkämpften Seezone nur für eine Landung von See (DAAK 3.2(c)).",
    "In der Kampfbewegung besteigen Truppen einen Transporter in einer umkämpften Seezone ({at}) nur für eine Landung von See (DAAK 3.2(c)).",
  ],
  "move/bombing": "Nur Bomber fliegen strategische Bombenangriffe, und nur in der Kampfbewegung.",
  "move/bombing-target": "Ein strategischer Bombenangriff geht auf ein feindliches Gebiet mit Industriekomplex.",
  "move/bridge-no-move": "Das Schiff hat keine Bewegung mehr übrig, um diese Einheiten überzusetzen (ALT L36).",
  "move/canal-closed": [
    "Schiffe passieren den Kanal nur, wenn die Gebiete, die ihn beherrschen, zu Beginn des Zuges befreundet waren (DAAK 2.3, 2.4).",
    "Schiffe passieren {canal} nur, wenn diese Gebiete zu Beginn des Zuges befreundet waren: {spaces} (DAAK 2.3, 2.4).",
  ],
  "move/captured-aa": "Eine in diesem Zug eroberte Flak darf sich nicht bewegen (DAAK 4.4(b)).",
  "move/cargo-after-sea-battle": "Truppen auf einem Transporter, der eine Seeschlacht geführt hat, bleiben bis zum nächsten Zug ihres Besitzers an Bord (DAAK 3.2(f)).",
  "move/cargo-route": "Ladung zieht mit ihrem Transporter; an Land geht sie mit einem Schritt von der Seezone an die Küste.",
  "move/casualties-first": "Zuerst müssen die Verluste gewählt werden.",
  "move/china-confined": [
    "Chinesische Einheiten verlassen China nie (AA50 FAQ: China).",
    "Chinesische Einheiten verlassen China nie: {at} liegt außerhalb (AA50 FAQ: China).",
  ],
  "move/combat-needs-target": [
    "Dort gibt es nichts anzugreifen: Züge ohne Angriff gehören in die Nichtkampfbewegung.",
    "{at} ist befreundet: Züge, die nichts angreifen, gehören in die Nichtkampfbewegung.",
  ],
  "move/dardanelles-closed": [
    "Die Dardanellen sind gesperrt: kein Schiff fährt in ihre Seezone ein oder aus ihr aus (Option dardanelles_closed).",
    "Die Dardanellen sind gesperrt: kein Schiff fährt in {at} ein oder aus {at} aus (Option dardanelles_closed).",
  ],
  "move/duplicate-unit": "Eine Einheit ist doppelt genannt.",
  "move/enemy-in-noncombat": [
    "Dieses Feld ist nicht befreundet: dorthin geht es nur in der Kampfbewegung.",
    "{at} ist nicht befreundet: dorthin geht es nur in der Kampfbewegung.",
  ],
  "move/escort-without-raid": "Begleitjäger fliegen mit Bombern oder zu einem Bombenangriff, der in dieser Kampfbewegung schon auf dieses Ziel angesagt wurde.",
  "move/first-turn-restricted": [
    "Diese Macht macht in Runde 1 keine Kampfbewegungen (Option russia_first_turn_restricted).",
    "{power} macht in Runde 1 keine Kampfbewegungen (Option russia_first_turn_restricted).",
  ],
  "move/immobile": ["Diese Einheit kann sich nicht bewegen.", "Diese Einheit ({unit}) kann sich nicht bewegen."],
  "move/land-at-sea": "Landeinheiten überqueren das Meer nur an Bord eines Transporters oder Schiffs: einsteigen, das Schiff fahren lassen, dann an Land gehen.",
  "move/lend-not-teammate": [
    "Einheiten werden nur an eine andere Macht der eigenen Seite verliehen.",
    "Einheiten werden nur an eine andere Macht der eigenen Seite verliehen; {power} gehört nicht dazu.",
  ],
  "move/lend-option-off": "Einheiten werden nur mit der Option assisting_teammates verliehen (ALT L56).",
  "move/lend-where": [
    "Verliehene Einheiten enden auf einem Gebiet, das der Empfänger beansprucht, oder in einer angrenzenden Seezone (ALT L56).",
    "Verliehene Einheiten enden auf einem Gebiet, das {power} beansprucht, oder in einer angrenzenden Seezone (ALT L56).",
  ],
  "move/mixed": "Land-, See- und Lufteinheiten ziehen getrennt; Ladung fährt mit ihrem Schiff.",
  "move/moved-in-combat": [
    "Diese Einheit hat sich in diesem Zug schon in der Kampfbewegung bewegt oder gekämpft; in der Nichtkampfbewegung ziehen nur Flugzeuge noch einmal.",
    "Diese Einheit ({unit}) hat sich in diesem Zug schon in der Kampfbewegung bewegt oder gekämpft; in der Nichtkampfbewegung ziehen nur Flugzeuge noch einmal.",
  ],
  "move/neutral-fee": [
    "Für neutrale Länder sind 3 IPCs je Land aus dem Rest nach dem Einkauf zu zahlen, und so viel ist nicht in der Kasse (DAAK 2.7(a)).",
    "Die Einnahme von {at} kostet {cost} IPCs aus dem Rest nach dem Einkauf; {power} hat {ipcs} (DAAK 2.7(a)).",
  ],
  "move/neutral-impassable": [
    "Neutrale Länder sind unpassierbar: keine Einheit darf sie betreten oder überfliegen.",
    "{at} ist neutral: keine Einheit darf es betreten oder überfliegen (neutrale Länder sind unpassierbar).",
  ],
  "move/neutral-noncombat": "Flugzeuge überfliegen neutrale Länder nur in der Kampfbewegung und zahlen dafür 3 IPCs (DAAK 2.7(c)).",
  "move/no-blitz": ["Nur Panzer dürfen blitzen.", "Nur Panzer dürfen durch {at} blitzen."],
  "move/no-landing": "Diese Flugzeuge könnten danach nirgends landen (kein erreichbares befreundetes Gebiet, kein Flugzeugträger mit Platz): ein Selbstmordangriff ist nicht erlaubt.",
  "move/no-room": "Dieses Schiff hat keinen Platz für sie: ein Schiff trägt zwei Einheiten (ALT L32).",
  "move/no-ship": [
    "Die befreundeten Schiffe dort haben nicht für alle Platz: ein Schiff trägt zwei Einheiten (ALT L32).",
    "Die befreundeten Schiffe in {at} haben nicht für alle Platz: ein Schiff trägt zwei Einheiten (ALT L32).",
  ],
  "move/no-such-unit": "Diese Einheit gibt es nicht.",
  "move/no-transport": "Dort gibt es keinen befreundeten Transporter, den diese Einheiten besteigen können.",
  "move/no-units": "Nenne mindestens eine Einheit, die ziehen soll.",
  "move/not-aboard": "Diese Einheit ist dort nicht an Bord eines Schiffs.",
  "move/not-adjacent": ["Diese Felder grenzen nicht aneinander: jeder Schritt einer Route führt ins Nachbarfeld.", "{from} und {to} grenzen nicht aneinander."],
  "move/not-at-start": ["Eine genannte Einheit steht nicht im Startfeld der Route.", "Eine genannte Einheit ({unit}) steht nicht in {at}."],
  "move/not-cargo": ["Diese Einheit ist nicht an Bord eines Transporters.", "Diese Einheit ({unit}) ist nicht an Bord eines Transporters."],
  "move/not-nearest": [
    "Das Flugzeug fliegt zu einem seiner nächstgelegenen Landeplätze (ALT L40).",
    "Das Flugzeug fliegt zu einem seiner nächstgelegenen Landeplätze: {spaces} (ALT L40).",
  ],
  "move/not-on-that-transport": "Diese Einheiten sind nicht an Bord des genannten Transporters.",
  "move/not-relocating": "Dieses Flugzeug wartet nicht darauf, zu einem Landeplatz zu fliegen.",
  "move/not-there": ["Diese Einheit steht nicht im Startfeld der Route.", "Diese Einheit ({unit}) steht nicht in {at}."],
  "move/not-transportable": [
    "Diese Einheit kann nicht von einem Transporter befördert werden.",
    "Diese Einheit ({unit}) kann nicht von einem Transporter befördert werden.",
  ],
  "move/not-yet-shuttled": [
    "Truppen auf dem Transporter einer anderen Macht gehen erst an Land, nachdem er sie in seinem eigenen Zug befördert hat (DAAK 3.3(b)).",
    "Truppen auf dem Transporter einer anderen Macht ({power}) gehen erst an Land, nachdem er sie in seinem eigenen Zug befördert hat (DAAK 3.3(b)).",
  ],
  "move/not-your-turn": "Jetzt zieht nur die Macht, die am Zug ist.",
  "move/not-yours": ["Jede Macht bewegt nur ihre eigenen Einheiten, im eigenen Zug.", "{power} bewegt nur die eigenen Einheiten, im eigenen Zug."],
  "move/off-limits": [
    "Dieses Feld ist gesperrt: niemand betritt oder überfliegt es (ALT L62).",
    "{at} ist gesperrt: niemand betritt oder überfliegt es (ALT L62).",
  ],
  "move/one-aa-gun": ["In einem Gebiet darf höchstens eine Flak stehen (DAAK 3.1(b)).", "In {at} darf höchstens eine Flak stehen (DAAK 3.1(b))."],
  "move/one-territory-per-transport": [
    "Der Transporter hat in diesem Zug schon in ein anderes Gebiet entladen: ein Transporter entlädt nur in ein einziges Gebiet (EUROPE FAQ: Amphibious Assault).",
    "Der Transporter hat in diesem Zug schon nach {at} entladen: ein Transporter entlädt nur in ein einziges Gebiet (EUROPE FAQ: Amphibious Assault).",
  ],
  "move/paratroopers": "Jeder Bomber trägt höchstens eine Infanterie, und nur Bomber tragen (AA50 errata p. 12).",
  "move/paratroopers-noncombat": "Bomber tragen Infanterie nur in der Kampfbewegung (AA50 FAQ: Weapons Development).",
  "move/paratroopers-start": "Ein Bomber und die Infanterie, die er trägt, beginnen ihre Bewegung gemeinsam im selben Gebiet (AA50 errata p. 12).",
  "move/paratroopers-stop": [
    "Ein Bomber mit Infanterie an Bord hält im ersten feindlichen Gebiet, das er betritt (AA50 errata p. 12).",
    "Ein Bomber mit Infanterie an Bord hält im ersten feindlichen Gebiet, das er betritt: {at} (AA50 errata p. 12).",
  ],
  "move/paratroopers-target": [
    "Fallschirmjäger springen nur über feindlichem Gebiet ab.",
    "Fallschirmjäger springen nur über feindlichem Gebiet ab, und {at} ist keines.",
  ],
  "move/partial-unload-combat": "In der Kampfbewegung entlädt ein Transporter seine ganze Ladung in ein einziges Gebiet (DAAK 3.2(e)).",
  "move/partial-unload-friendly": "Truppen auf dem Transporter einer befreundeten Macht gehen alle zusammen an Land (DAAK 3.3(b)).",
  "move/piggyback-cargo-only": "Nur Einheiten an Bord eines Schiffs wechseln auf ein anderes Schiff in der Seezone.",
  "move/piggyback-needs-ship": [
    "Nenne das befreundete Schiff in dieser Seezone (`transport`), auf das die Ladung wechselt.",
    "In {at} gibt es kein befreundetes Schiff dieses Namens.",
  ],
  "move/plane-needs-ship": [
    "Flugzeuge landen nur an Land oder an Bord eines befreundeten Schiffs mit Platz; dort gibt es keins (ALT L38).",
    "Flugzeuge landen nur an Land oder an Bord eines befreundeten Schiffs mit Platz; in {at} gibt es keins (ALT L38).",
  ],
  "move/relocate-one": "Flugzeuge ohne Schiff fliegen einzeln, eines nach dem anderen.",
  "move/relocate-route": "Diese Route kann das Flugzeug nicht fliegen: benachbarte Felder, keines vom Feind gehalten, im Rahmen seiner Bewegung.",
  "move/ship-on-land": ["Schiffe bleiben auf See.", "Schiffe bleiben auf See: {at} ist Land."],
  "move/short-route": "Eine Route nennt das Startfeld und mindestens ein weiteres Feld.",
  "move/stopped-in-battle": [
    "Diese Einheit ist in diesem Zug in einen Kampf oder Bombenangriff gezogen und bleibt dort, bis er ausgetragen ist.",
    "Diese Einheit ({unit}) ist in diesem Zug in einen Kampf oder Bombenangriff in {at} gezogen und bleibt dort, bis er ausgetragen ist.",
  ],
  "move/through-enemy": ["Feindliche Einheiten auf dem Weg halten die Bewegung auf.", "Feindliche Einheiten in {at} halten die Bewegung auf."],
  "move/through-enemy-ships": ["Feindliche Schiffe auf dem Weg halten die Schiffe auf.", "Feindliche Schiffe in {at} halten durchfahrende Schiffe auf."],
  "move/through-neutral": [
    "Landeinheiten halten in neutralen Ländern an, und Panzer dürfen nicht durch ein neutrales Land blitzen (DAAK 2.7(b), 3.6(c)).",
    "{at} ist neutral: Landeinheiten halten dort an, und Panzer dürfen nicht durch ein neutrales Land blitzen (DAAK 2.7(b), 3.6(c)).",
  ],
  "move/too-far": ["So weit kann diese Einheit nicht mehr ziehen.", "Diese Einheit ({unit}) hat eine Bewegung von {movement} pro Zug und nur noch {left} übrig."],
  "move/transfer-between-transports": "Truppen dürfen nicht direkt von einem Transporter auf einen anderen wechseln (DAAK 3.2(g)).",
  "move/transport-after-unloading": "Ein Transporter bewegt sich nicht mehr, nachdem er entladen hat (DAAK 3.2(d)).",
  "move/transport-unusable": "Die Einheiten können diesen Transporter nicht besteigen (kein Transporter, nicht in dieser Seezone, feindlich, schon entladen, Truppen einer anderen Nation an Bord oder kein Platz).",
  "move/unit-twice": "Eine Einheit ist doppelt genannt.",
  "move/unknown-transport": "Diesen Transporter gibt es nicht.",
  "move/unknown-unit": "Diese Einheit gibt es nicht.",
  "move/wrong-phase": "Einheiten ziehen im Zug ihrer Nation, in der Kampfbewegung oder der Nichtkampfbewegung.",
  "move/zone-not-cleared": [
    "Die feindlichen Einheiten in der Seezone müssen vernichtet sein, bevor Landeinheiten auf feindliches Gebiet entladen werden (ALT L34).",
    "Die feindlichen Einheiten in {at} müssen vernichtet sein, bevor Landeinheiten auf feindliches Gebiet entladen werden (ALT L34).",
  ],

  // The browser's own
  "network/failed": "Der Server ist nicht erreichbar.",

  // Odds
  "odds/not-a-move": "Gewinnchancen gibt es nur für einen Zug mit Route (`type`: `move`).",

  // Standing orders
  "orders/not-yours": "Stehende Befehle gibt nur der Spieler, der die Macht hält.",
  "orders/unknown-unit": "Diesen Einheitentyp hat das Regelwerk nicht.",

  // Placement
  "place/carrier-room": [
    "Neue Jäger kommen auf eigene Flugzeugträger in der Seezone, die Platz für sie haben.",
    "Neue Jäger kommen auf eigene Flugzeugträger ({power}) in {at}, die Platz für sie haben.",
  ],
  "place/china-limit": [
    "China stellt nur dort auf, wo vor dem Aufstellen weniger als drei chinesische Einheiten standen.",
    "In {at} standen vor dem Aufstellen schon {count} chinesische Einheiten: China stellt nur dort auf, wo weniger als drei stehen.",
  ],
  "place/china-territory": [
    "China stellt seine Einheiten in einem Gebiet auf, das es kontrolliert.",
    "China stellt seine Einheiten in einem Gebiet auf, das es kontrolliert, nicht in {at}.",
  ],
  "place/enemy-planes": [
    "In diesem Gebiet sind feindliche Flugzeuge: dort kann nichts gekauft werden, obwohl es weiter Einkommen bringt (ALT L38).",
    "In {at} sind feindliche Flugzeuge: dort kann nichts gekauft werden, obwohl es weiter Einkommen bringt (ALT L38).",
  ],
  "place/enemy-zone": [
    "In eine Seezone mit feindlichen Schiffen dürfen keine Schiffe gesetzt werden.",
    "In {at} stehen feindliche Schiffe: dort dürfen keine Schiffe aufgestellt werden.",
  ],
  "place/factory-territory": [
    "Ein Industriekomplex wird in einem Gebiet gebaut, das die eigene Nation seit Beginn des Zuges hält.",
    "Ein Industriekomplex wird in einem Gebiet gebaut, das {power} seit Beginn des Zuges hält.",
  ],
  "place/factory-with-units": "Ein Industriekomplex wird für sich allein aufgestellt.",
  "place/fair-buying-buy-first": "Beim fairen Kauf werden Einheiten erst aufgestellt, wenn jede Nation ihren Einkauf beendet hat (ALT L60).",
  "place/fair-buying-one-at-a-time": "Beim fairen Kauf stellt jede Nation reihum eine Einheit auf (ALT L60).",
  "place/land-unit-at-sea": [
    "In Seezonen werden nur Schiffe aufgestellt; neue Jäger kommen an Land zu einem Industriekomplex (DAAK 3.4(f)).",
    "Einheiten vom Typ {unit} werden nur in Gebieten gekauft, nicht auf See (ALT L30).",
  ],
  "place/limit": [
    "Der Industriekomplex kann in diesem Zug nicht mehr so viele Einheiten aufstellen.",
    "Der Industriekomplex in {at} kann in diesem Zug nur noch {room} Einheiten aufstellen.",
  ],
  "place/must-place": [
    "Es können noch Einheiten aufgestellt werden: zurückgehalten werden sie nur, wenn kein Industriekomplex Platz für sie hat (AA50 FAQ: Miscellaneous).",
    "Einheiten vom Typ {unit} können noch aufgestellt werden: zurückgehalten werden sie nur, wenn kein Industriekomplex Platz für sie hat (AA50 FAQ: Miscellaneous).",
  ],
  "place/no-factory": [
    "Aufgestellt wird in einem Gebiet mit einem Industriekomplex, den die eigene Nation seit Beginn des Zuges hält; Schiffe in einer Seezone daneben.",
    "Aufgestellt wird in einem Gebiet mit einem Industriekomplex, den {power} seit Beginn des Zuges hält; Schiffe in einer Seezone daneben.",
  ],
  "place/no-room-aboard": [
    "Ein Flugzeug auf See ist immer an Bord eines Schiffs, und die Schiffe dort haben nicht genug Platz (ALT L38).",
    "Ein Flugzeug auf See ist immer an Bord eines Schiffs; die Schiffe in {at} haben Platz für {room} (ALT L38).",
  ],
  "place/not-bought": ["So viele Einheiten dieses Typs warten nicht aufs Aufstellen.", "{power} hat nur {count} × {unit} zum Aufstellen."],
  "place/not-claimed": [
    "Einheiten werden nur auf Gebieten aufgestellt, die die eigene Nation beansprucht (ALT L20).",
    "Einheiten werden nur auf Gebieten aufgestellt, die {power} beansprucht (ALT L20), und {at} ist keines.",
  ],
  "place/not-next-to-claimed": [
    "Diese Seezone grenzt an kein Gebiet, das die eigene Nation beansprucht (ALT L32).",
    "{at} grenzt an kein Gebiet, das {power} beansprucht (ALT L32).",
  ],
  "place/not-your-go": [
    "Beim fairen Kauf ist gerade eine andere Nation mit dem Aufstellen an der Reihe (ALT L60).",
    "Beim fairen Kauf ist jetzt {powerNext} mit dem Aufstellen an der Reihe, nicht {power} (ALT L60).",
  ],
  "place/nothing": "Nenne die Einheiten, die aufgestellt werden sollen.",
  "place/one-aa-gun": ["In einem Gebiet darf höchstens eine Flak stehen (DAAK 3.1(b)).", "In {at} darf höchstens eine Flak stehen (DAAK 3.1(b))."],
  "place/one-factory": "Ein Gebiet hat höchstens einen Industriekomplex.",
  "place/ship-on-land": [
    "Schiffe werden in einer Seezone neben dem Industriekomplex aufgestellt.",
    "Einheiten vom Typ {unit} werden in einer Seezone neben einem Gebiet aufgestellt, das die eigene Nation beansprucht (ALT L32).",
  ],
  "place/wrong-phase": "Einheiten werden in der Phase Aufstellen aufgestellt.",

  // The engine protocol (WebSocket)
  "protocol/bad-field": "Ein Feld der Anfrage hat keinen gültigen Wert.",
  "protocol/missing-field": "Eine Anfrage nennt ihren Befehl (`cmd`).",
  "protocol/not-json": "Die Anfrage ist kein JSON.",
  "protocol/not-object": "Eine Anfrage ist ein JSON-Objekt.",
  "protocol/unknown-command": "Diesen Befehl gibt es nicht.",

  // Purchase
  "purchase/china": "China hat keine IPCs und kauft nichts: es erhält Infanterie, wenn seine Einkaufsphase endet (AA50 FAQ: China).",
  "purchase/cost": ["Diese Einheiten kosten mehr IPCs, als in der Kasse sind.", "Diese Einheiten kosten {cost} IPCs; {power} hat {ipcs}."],
  "purchase/not-for-sale": [
    "Dieser Einheitentyp kann in diesem Regelwerk nicht gekauft werden.",
    "Einheiten vom Typ {unit} können in diesem Regelwerk nicht gekauft werden.",
  ],
  "purchase/unknown-unit": ["Diesen Einheitentyp gibt es in diesem Regelwerk nicht.", "In diesem Regelwerk gibt es keine Einheiten vom Typ {unit}."],
  "purchase/wrong-phase": "Einheiten werden in der Einkaufsphase gekauft.",

  // Reclaiming lent units (Alternative)
  "reclaim/no-such-unit": "Diese Einheit gibt es nicht.",
  "reclaim/no-units": "Nenne die Einheiten, die zurückgenommen werden sollen.",
  "reclaim/not-lent": [
    "Zurückgenommen werden nur eigene Einheiten an diesem Ort, die eine andere Macht der eigenen Seite nutzt.",
    "Zurückgenommen werden nur eigene Einheiten ({power}) in {at}, die eine andere Macht der eigenen Seite nutzt.",
  ],
  "reclaim/option-off": "Einheiten werden nur mit der Option assisting_teammates verliehen und zurückgenommen (ALT L56).",
  "reclaim/same-turn": "Verliehene Einheiten werden im nächsten Zug des Besitzers zurückgenommen, nicht im Zug, in dem sie verliehen wurden (ALT L56).",

  // Repairs
  "repair/cost": ["Die Reparatur kostet mehr IPCs, als in der Kasse sind.", "Die Reparatur von {count} Schaden kostet {cost} IPCs; {power} hat {ipcs}."],
  "repair/count": ["So viel Schaden hat der Industriekomplex nicht.", "Der Industriekomplex in {at} hat {hits} Schadensmarker."],
  "repair/no-complex": ["Dort steht kein eigener Industriekomplex.", "{power} hat keinen Industriekomplex in {at}."],
  "repair/wrong-phase": "Schaden wird in deiner Einkaufsphase repariert.",

  // HTTP requests
  "request/bad-field": "Ein Feld der Anfrage hat keinen gültigen Wert.",
  "request/bad-json": "Die Anfrage hat nicht den erwarteten Aufbau.",
  "request/not-json": "Der Inhalt der Anfrage ist kein JSON.",
  "request/not-websocket": "Diese Adresse ist eine WebSocket-Verbindung.",
  "request/too-large": "Der Inhalt der Anfrage ließ sich nicht lesen (zu groß?).",
  "request/unknown-route": "Diese Adresse gibt es nicht.",
  "request/wrong-method": "Diese Adresse nimmt diese Anfrageart nicht an.",

  // Research and development
  "research/chart": "Diese Forschungstabelle gibt es hier nicht: je nach Regelwerk gibt es eine, oder Tabelle 1 (Land und Produktion) und 2 (Luft und See).",
  "research/chart-complete": ["Diese Macht besitzt schon jede Entwicklung dieser Tabelle.", "{power} besitzt schon jede Entwicklung dieser Tabelle."],
  "research/china": "China forscht nicht (AA50 FAQ: China).",
  "research/cost": ["Die Forschung kostet mehr IPCs, als in der Kasse sind.", "{dice} Forschungswürfel kosten {cost} IPCs; {power} hat {ipcs}."],
  "research/development-rolled": "Die Entwicklung wird auf der Tabelle erwürfelt (Option research_breakthrough = \"roll\"), nicht gewählt.",
  "research/name-development": "Mit research_breakthrough = \"choose\" nennst du die Entwicklung, auf die die Würfel zielen.",
  "research/no-researchers": ["Diese Macht hat keine Forscher: kaufe mindestens einen.", "{power} hat keine Forscher: kaufe mindestens einen."],
  "research/off": "Waffenentwicklung ist in dieser Partie abgeschaltet (Option weapons_development).",
  "research/once-a-turn": [
    "In diesem Zug wurde schon geforscht: Forscher würfeln einmal pro Zug (AA50 rules: Research & Development).",
    "{power} hat in diesem Zug schon geforscht: Forscher würfeln einmal pro Zug (AA50 rules: Research & Development).",
  ],
  "research/owned": ["Diese Entwicklung ist schon vorhanden.", "{power} besitzt diese Entwicklung schon."],
  "research/wrong-phase": "Forschungswürfel werden in der Phase Waffenentwicklung gekauft.",

  // Rockets
  "rocket/fired": ["Von dort wurde in diesem Zug schon eine Rakete abgefeuert.", "Aus {from} wurde in diesem Zug schon eine Rakete abgefeuert."],
  "rocket/no-aa-gun": ["Dort steht keine eigene Flak.", "{power} hat keine Flak in {from}."],
  "rocket/no-development": ["Diese Macht hat keine Raketen entwickelt.", "{power} hat keine Raketen entwickelt."],
  "rocket/range": ["Das Ziel ist mehr als 3 Felder entfernt.", "{at} ist mehr als 3 Felder von {from} entfernt."],
  "rocket/target": ["Dort steht kein feindlicher Industriekomplex.", "In {at} steht kein feindlicher Industriekomplex."],
  "rocket/target-struck": [
    "Dieser Industriekomplex wurde in diesem Zug schon von einer Rakete getroffen.",
    "Der Industriekomplex in {at} wurde in diesem Zug schon von einer Rakete getroffen.",
  ],
  "rocket/wrong-phase": "Raketen werden in der Kampfphase abgefeuert.",

  // The server
  "server/internal": "Interner Fehler des Servers.",

  // The host's table
  "table/host-only": "Erinnerungen, Ablauf der Zeit und Platzwechsel vermerkt nur die Uhr des Servers.",

  // Shopping (Alternative)
  "shopping/no-capital": [
    "Diese Nation beansprucht keine nutzbare Hauptstadt: sie bekommt kein Einkommen und kauft nichts, bis sie eine zurückerobert (ALT L4).",
    "{power} beansprucht keine nutzbare Hauptstadt: kein Einkommen und kein Einkauf, bis eine zurückerobert ist (ALT L4).",
  ],
  "shopping/placing": [
    "Alle Nationen haben ihren Einkauf beendet: Einheiten werden reihum einzeln aufgestellt (ALT L60).",
    "Alle Nationen haben ihren Einkauf beendet: Einheiten werden reihum einzeln aufgestellt, als Nächstes von {powerNext} (ALT L60).",
  ],
  "shopping/units-to-place": ["Diese Nation hat noch Einheiten aufzustellen.", "{power} hat noch Einheiten aufzustellen."],

  // The browser's own
  "socket/closed": "Die Verbindung brach ab, bevor der Server antwortete.",

  // Starting a game
  "start/bad-option": "Eine Option hat keinen gültigen Wert.",
  "start/bad-position": "Die Startaufstellung lässt sich nicht aufbauen.",
  "start/broken-ruleset": "Dieses Regelwerk lässt sich nicht laden.",
  "start/too-large": "Ein Teil des Starts ist größer, als ein Spielstand fassen kann.",
  "start/unknown-power": "Diese Macht gibt es in diesem Regelwerk nicht.",
  "start/unknown-ruleset": "Dieses Regelwerk gibt es nicht (oder es ist noch nicht verfügbar).",

  // The server's store
  "store/conflict": "Das kollidiert mit einem vorhandenen Eintrag (etwa einem vergebenen Namen oder besetzten Platz).",
  "store/database": "Die Datenbank hat versagt; nichts wurde geändert: versuche es noch einmal.",
  "store/not-found": "Nicht gefunden.",

  // Surrender
  "surrender/not-in-play": ["Diese Nation oder Seite ist nicht (mehr) im Spiel.", "{power} ist nicht (mehr) im Spiel."],
  "surrender/unknown-team": [
    "Diese Seite kann nicht aufgeben: es gibt sie nicht, oder es gibt keine andere Seite, der sie sich ergeben könnte.",
    "In dieser Partie gibt es keine Seite „{team}“.",
  ],

  // Ending a turn (Alternative)
  "turn/battle-open": ["Eine offene Schlacht muss erst zu Ende ausgetragen werden.", "Die Schlacht in {at} muss erst zu Ende ausgetragen werden."],
  "turn/enemies-share-a-space": [
    "Eigene und feindliche Einheiten stehen im selben Feld: sie müssen es austragen (`battle`), bevor der Zug endet (ALT L32, L44).",
    "In {at} stehen eigene Einheiten ({power}) und feindliche: sie müssen es austragen (`battle`), bevor der Zug endet (ALT L32, L44).",
  ],

  // Undo
  "undo/by-engine": "Die letzte Aktion hat der Computer für eine Macht gemacht, die du nicht steuerst.",
  "undo/dice-rolled": "Bei der letzten Aktion wurde gewürfelt: eine Aktion, deren Würfel gesehen wurden, lässt sich nicht zurücknehmen.",
  "undo/proven": "In einer Partie mit Server-Würfeln wird nichts zurückgenommen.",
  "undo/game-over": "Die Partie ist vorbei.",
  "undo/nothing": "Es gibt nichts zurückzunehmen: noch wurde keine Aktion gemacht.",
  "undo/phase-start":
    "Der Zug hat gerade begonnen (oder die letzte Aktion beendete eine Phase der ganzen Runde): zurückgenommen wird nur innerhalb der Phasen eines Zuges.",
};
