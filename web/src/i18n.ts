import { REFUSALS_DE } from "./refusals_de";
import { STORY_DE, PURPOSES_DE } from "./story_de";

// Every string the page shows, in English and German. The language comes
// from a saved choice (the header's switch), else navigator.language.

const en = {
  appName: "warboard",
  loading: "Loading…",
  signedInAs: "Signed in as {name}",
  signOut: "Sign out",
  switchLanguage: "Deutsch",
  switchLanguageLabel: "Auf Deutsch umschalten",
  lobby: "Lobby",
  skipToContent: "Skip to content",
  dismiss: "Dismiss",

  // sign-in
  signInTitle: "Sign in",
  signInIntro: "Sign in to play, or create an account: a name of 3 to 32 letters, digits, _ or -, and a password of at least 8 characters.",
  name: "Name",
  password: "Password",
  signIn: "Sign in",
  createAccount: "Create account",
  networkFailed: "The server could not be reached: {message}",

  // lobby
  newGame: "New game",
  ruleset: "Ruleset",
  calcTitle: "Calculator",
  incomeTitle: "Income if paid now",
  turnOrder: "Turn order",
  lastDice: "Last dice",
  endPhaseAnyway: "End phase anyway",
  endPhaseLoses: "Ending the phase now loses {what}. Press again to go ahead, or move them first.",
  replayTitle: "Replay",
  replayStep: "Entry",
  replayFirst: "To the start",
  replayPrev: "One entry back",
  replayNext: "One entry on",
  replayLast: "To the end",
  replayWhere: "After entry {n} of {count}: round {round}, {turn}'s turn, {phase}",
  backToGame: "← Back to the game",
  replayLink: "Replay",
  calcBattle: "Battle",
  calcHint: "Attackers, then `vs`, then defenders: 3 inf 2 arm 1 ftr vs 4 inf 1 aa",
  calcAmphibious: "Amphibious assault",
  calcRun: "Calculate",
  calcAttackers: "Attackers",
  calcDefenders: "Defenders",
  calcAttackerWins: "Attacker wins",
  calcDefenderWins: "Defender wins",
  calcDraw: "Both destroyed",
  calcMethod: "Method: {method}; the battle is fought by the rules core's own battle rules.",
  options: "Options",
  noOptions: "This ruleset has no options.",
  defaultIs: "default: {value}",
  optionJsonHint: "JSON value",
  seats: "Seats",
  power: "Power",
  team: "Team",
  player: "Player",
  seatMe: "Me",
  seatOpen: "Open",
  seatComputer: "Computer",
  seatAccount: "Account",
  thinkMs: "Thinking time for {power} (ms)",
  accountName: "Account name for {power}",
  publicGame: "Public (anyone may watch and join open seats)",
  create: "Create game",
  creating: "Creating…",
  badJson: "Option {name}: not a valid value ({message})",
  myGames: "My games",
  openGames: "Open games",
  refresh: "Refresh",
  noGames: "No games yet.",
  noOpenGames: "No open games right now.",
  colRuleset: "Ruleset",
  colStatus: "Status",
  colTurn: "Whose turn",
  colMyPowers: "My powers",
  colSeats: "Seats",
  colCreated: "Created",
  colActions: "Actions",
  open: "Open",
  openGame: "Open game {id}",
  takeSeat: "Take {power}",
  leaveSeat: "Leave {power}",
  statusOpen: "waiting for players",
  statusPlaying: "playing",
  statusOver: "over",
  seatTaken: "You took {power}.",

  // game page
  gameTitle: "Game {id}",
  backToLobby: "← Lobby",
  connection: "Connection",
  connOpen: "connected",
  connConnecting: "connecting…",
  connClosed: "disconnected, retrying…",
  reconnect: "Reconnect",
  summary: "Game",
  round: "Round",
  turn: "Turn",
  phase: "Phase",
  actor: "Deciding",
  myPowers: "Your powers",
  watching: "You are watching this game.",
  banks: "Banks (IPCs)",
  waitingFor: "Waiting for {power}…",
  waitingForPlayers: "Waiting for players to take the open seats.",
  gameOver: "Game over. Winner: {winner}",
  gameOverNoWinner: "Game over.",
  yourDecision: "Your decision: {what}",
  decisionFor: "{power} decides",
  noItems: "Nothing to choose here but ending the phase.",
  board: "Board",
  zoomIn: "Zoom in",
  zoomOut: "Zoom out",
  zoomFit: "Fit the board",
  boardFallback: "The drawn board is not available; the spaces are shown as a grid.",
  boardHelp: "Drag to pan, wheel or buttons to zoom, click a space to see its units.",
  spaceInfo: "Selected space",
  noUnits: "No units.",
  controlledBy: "Controlled by {power}",
  ipcValue: "worth {n} IPCs",
  log: "Log",
  alsoMoveTitle: "Move with them in one action",
  alsoMove: "{count} {unit} here",
  countOf: "How many {unit}",
  noCommonDestination: "No space every chosen unit type can reach on one route.",
  incomeChart: "Income by round",
  incomeNone: "No income has been paid yet.",
  incomeFigures: "The figures",
  chat: "Chat",
  chatMessage: "Message to the other players",
  chatPlaceholder: "Say something (Enter sends, Shift+Enter: new line)",
  chatWatchOnly: "Only the game's players chat; you are watching.",
  chatSend: "Send",
  sealed: "(sealed {what} by {power})",
  sealedPurchase: "purchase",
  earlierOmitted: "(earlier entries are not shown)",
  undone: "(the last action was taken back)",
  battles: "Battles this turn",
  battleLine: "{at}: {attacker} ({kind}), {result}, round {round}",
  purchased: "Bought, to be placed",

  // decisions
  decisionTitle: "Decision",
  endPhase: "End phase",
  undo: "Undo",
  surrender: "Surrender",
  surrenderConfirm1: "Surrender? The whole team ({team}) gives up and loses the game.",
  surrenderConfirm2: "Are you really sure? This cannot be undone.",
  surrenderYes: "Yes, surrender",
  surrenderFinal: "Surrender for good",
  cancel: "Cancel",
  sending: "Sending…",
  purchase: "Purchase",
  bank: "Bank: {n} IPCs",
  costEach: "{n} IPCs each",
  upTo: "up to {n}",
  totalCost: "Total: {total} of {bank} IPCs",
  buy: "Buy",
  moves: "Move units",
  stack: "{count} × {unit} at {from}",
  cannotMove: "cannot move",
  routesCount: "{n} destinations",
  chooseStack: "Choose a stack of units, then a destination (also by clicking a highlighted space on the board).",
  count: "How many",
  routeTo: "to {to}",
  via: "via {path}",
  attackWins: "attack wins {p}",
  bombingRaid: "Strategic bombing raid",
  battlesToFight: "Battles",
  fight: "Fight a round at {at}",
  resolve: "Fight to the end at {at}",
  rocket: "Rocket from {from} at {at}",
  casualties: "Casualties at {at}",
  chooseHits: "Choose {hits} casualties ({chosen} chosen).",
  takeLosses: "Take these losses",
  damaged: "damaged",
  pressOrRetreat: "Battle at {at}",
  continueBattle: "Continue the battle",
  retreatTo: "Retreat to {to}",
  breakOff: "Break off (aircraft)",
  submergeTo: "Submarines withdraw to {to}",
  place: "Place units",
  placeAt: "Place at {at}",
  placeSubmit: "Place at {at}",
  research: "Research",
  researchDice: "Research dice",
  researchChart: "chart {n}",
  researchAim: "aiming at {development}",
  rollResearch: "Roll",
  repair: "Repair at {at} ({damage} damage)",
  repairCount: "Damage to repair at {at}",
  repairSubmit: "Repair",
  other: "Other actions",
  errorTitle: "Refused",
  socketClosed: "The connection was lost before the server answered.",
  socketStopped: "The connection is closed.",
  notSignedIn: "Sign in to play.",

  // correspondence play: the new game's clock and dice (web/src/corr_form.ts)
  correspondence: "Correspondence play",
  moveDays: "Time per move",
  moveDaysNone: "none (live play)",
  dayOne: "1 day",
  daysN: "{n} days",
  vacationDays: "Vacation days",
  vacationDaysHint: "Days each player may add to their deadlines over the whole game (0–60); only with a time per move.",
  dice: "Dice",
  diceSeeded: "seeded (undo within a turn)",
  diceServer: "server",
  diceBeacon: "beacon",
  diceBeaconHint: "Beacon dice: each roll waits a few seconds for a public randomness beacon's next round (drand): nobody, not even the server, knows them in advance.",
  diceBeaconLine: "Dice: from the public beacon ({scheme}); every die can be checked at any time",
  diceServerHint: "Server dice: committed at the start, revealed at the end: anyone can check them. Nothing is undone.",
  // the clock and dice on the game page (web/src/clock.ts, web/src/proven.ts)
  clockAndDice: "Clock and dice",
  clockRule: "{move} per move, {vacation} of vacation for each player",
  clockWaiting: "Waiting on {account} ({power})",
  clockWaitingYou: "Waiting on you ({power})",
  clockIdle: "The clock is not running: the game waits on the computer, an open seat or nobody.",
  clockDeadline: "Deadline: {date}",
  clockLeftDays: "{d} d {h} h left",
  clockLeftHours: "{h} h {m} min left",
  clockOverdue: "time is up",
  stageHalf: "half the time is gone",
  stageLate: "the time is nearly up",
  stageExpired: "the time ran out",
  vacationLeft: "Your vacation days left: {n}",
  vacationBanked: "{n} of them kept for your next wait",
  vacationDaysLabel: "Vacation days to take",
  takeVacation: "Take vacation",
  claimHint: "{account}'s time ran out: you may claim the win.",
  claimWin: "Claim the win",
  takenOverLine: "{power}: the computer plays for {account}",
  reclaimHint: "Your time ran out and the computer plays {powers} for you.",
  reclaimSeats: "Reclaim my seats",
  diceSeededLine: "Dice: seeded by the server (its seed stays secret)",
  diceCommitted: "Dice: committed (SHA-256 {hash}…)",
  diceSeed: "Seed revealed: {seed}",
  diceVerify: "Download the record and run `warboard verify` on it.",
  downloadRecord: "Download the record",
  receiptKept: "1 receipt kept",
  receiptsKept: "{n} receipts kept",
  clockHalf: "Clock: half the time for {power}'s move is gone ({account}; deadline {deadline})",
  clockLate: "Clock: the time for {power}'s move is nearly up ({account}; deadline {deadline})",
  clockExpired: "Clock: {account}'s time for {power} ran out",
  clockClaimed: "Clock: {account} claimed the win; {side} surrender",
  clockTakenOver: "Clock: the computer took over {powers} from {account}",
  clockReclaimed: "Clock: {account} took back {powers}",
  clockVacation: "Clock: {account} took {days} of vacation ({left} left)",
  clockOther: "Clock: {kind}",
  // standing orders (web/src/orders.ts)
  ordersTitle: "Standing orders",
  ordersIntro: "Your battle decisions made in advance, answered at once; a decision left to ask waits for you.",
  ordersLosses: "Order of loss",
  ordersLossesHint: "Unit types, the first taken first, separated by commas; empty: ask me. On the board: {types}",
  ordersSubs: "Submarines",
  ordersAsk: "ask me",
  ordersAlways: "always submerge or withdraw",
  ordersNever: "never",
  ordersRetreat: "Retreat (attacking)",
  ordersRetreatNever: "never: press on",
  ordersRetreatWhen: "when at most N units are left",
  ordersRetreatN: "N (units left)",
  ordersSave: "Save orders",
  ordersClear: "Clear orders",
  ordersSaved: "Saved.",
  ordersCleared: "Cleared: every decision is asked.",
  ordersNone: "No standing orders: every decision is asked.",
  ordersUnknownUnit: "Not a unit type: {name}",
  // account settings (web/src/pages/settings.ts)
  settings: "Settings",
  mailTitle: "Turn mail",
  mailIntro: "A mail when the turn passes to you in a game, and reminders before a correspondence game's deadline.",
  mailAddress: "Mail address",
  mailOn: "Send me turn mail",
  mailSave: "Save",
  mailSaved: "Saved.",
  mailSending: "This server sends mail.",
  mailNotSending: "This server sends no mail (no mail server is set up); your settings are kept for when it does.",
  // the ladder (web/src/pages/ladder.ts, player.ts)
  ladder: "Ladder",
  ladderIntro: "Ratings from rated games: games with proven dice (server or beacon) between accounts, each side held by its own. One rating per ruleset family; a rating marked ? is provisional until its deviation is 110 or less.",
  ladderFamilies: "Ruleset families",
  familyClassic: "Classic",
  familyEurope: "Europe",
  familyAnniversary: "Anniversary",
  familyAlternative: "Alternative",
  ladderBoard: "Leaderboard: {family}",
  ladderGames: "{n} rated games",
  ladderEmpty: "No rated games in this family yet.",
  colRank: "Rank",
  colPlayer: "Player",
  colRating: "Rating",
  colDeviation: "Deviation",
  colGames: "Games",
  colTeamRating: "Team rating",
  colTeamGames: "Team games",
  provisional: "provisional",
  balanceTitle: "Side balance",
  balanceIntro: "How often each side wins the family's rated games, overall and by the bid the Axis got.",
  balanceAll: "All rated games",
  balanceNoBid: "No bid",
  balanceBid: "Bid of {n} IPCs",
  colAxisWins: "Axis wins",
  colAlliesWins: "Allies wins",
  colDraws: "Draws",
  balanceEmpty: "No rated games with known sides yet.",
  balanceUnknown: "Not counted: {n} rated games whose sides were not one Axis and one Allies.",
  backToLadder: "← Ladder",
  playerRatings: "Ratings",
  playerRank: "{rank} of {players}",
  playerNoGames: "{name} has no rated games yet.",
  unknownPlayer: "There is no player of this name.",
  ratingChartTitle: "Rating after each game",
  ratingChart: "Rating after each rated game, one line a ruleset family",
  teamRatingChartTitle: "Team rating after each team game",
  teamRatingChart: "Team rating after each rated team game, one line a ruleset family",
  ratingPoint: "{family}, game {n} ({date}): {rating}",
  ratingFigures: "The figures",
  colNumber: "No.",
  colEnded: "Ended",
  colFamily: "Family",
  sidesTitle: "Results by side",
  colSide: "Side",
  colWins: "Wins",
  colLosses: "Losses",
  sideUnknown: "Side not known",
  ratedGames: "Rated games",
  colOpponents: "Opponents",
  colPartners: "Partners",
  colResult: "Result",
  colHow: "How",
  colLinks: "Replay and record",
  resultWin: "won",
  resultLoss: "lost",
  resultDraw: "draw",
  howVictory: "victory",
  howSurrender: "surrender",
  howClaim: "claim (time ran out)",
  recordLink: "Record",
  privateGame: "private game",

  // corrections by consent
  takeBackLabel: "Take back the game to before entry {n}",
  takeBackTitle: "Propose a correction",
  takeBackConfirm: "Propose to take back the game to before entry {n}? The other side must agree; dice rolled since stay in the record.",
  takeBackConfirmLine: "Propose to take back the game to before entry {n} (“{line}”)? The other side must agree; dice rolled since stay in the record.",
  takeBackPropose: "Propose",
  correctionTitle: "Correction proposed",
  correctionProposed: "{power} proposes to take back the game to before entry {n}.",
  correctionProposedLine: "{power} proposes to take back the game to before entry {n} (“{line}”).",
  correctionProposedChange: "{power} proposes a correction: {what}.",
  correctionAsk: "Approving takes the game back; dice rolled since stay in the record. The proposal lapses if the game goes on first.",
  correctionAskChange: "Approving corrects the position as proposed. The proposal lapses if the game goes on first.",
  correctionWaiting: "Waiting for the other side to approve or decline. The proposal lapses if the game goes on first.",
  correctionWatching: "The other side approves or declines.",
  correctionApprove: "Approve",
  correctionDecline: "Decline",
  correctionWithdraw: "Withdraw",
} as const;

export type Key = keyof typeof en;

const de: Record<Key, string> = {
  appName: "warboard",
  loading: "Wird geladen…",
  signedInAs: "Angemeldet als {name}",
  signOut: "Abmelden",
  switchLanguage: "English",
  switchLanguageLabel: "Switch to English",
  lobby: "Lobby",
  skipToContent: "Zum Inhalt springen",
  dismiss: "Schließen",

  signInTitle: "Anmelden",
  signInIntro: "Melde dich an, um zu spielen, oder lege ein Konto an: ein Name aus 3 bis 32 Buchstaben, Ziffern, _ oder -, und ein Passwort mit mindestens 8 Zeichen.",
  name: "Name",
  password: "Passwort",
  signIn: "Anmelden",
  createAccount: "Konto anlegen",
  networkFailed: "Der Server ist nicht erreichbar: {message}",

  newGame: "Neues Spiel",
  ruleset: "Regelwerk",
  calcTitle: "Rechner",
  incomeTitle: "Einkommen, wenn jetzt gezahlt würde",
  turnOrder: "Zugfolge",
  lastDice: "Letzte Würfel",
  endPhaseAnyway: "Phase trotzdem beenden",
  endPhaseLoses: "Wer die Phase jetzt beendet, verliert {what}. Noch einmal drücken, um fortzufahren, oder die Einheiten zuerst ziehen.",
  replayTitle: "Wiederholung",
  replayStep: "Eintrag",
  replayFirst: "Zum Anfang",
  replayPrev: "Einen Eintrag zurück",
  replayNext: "Einen Eintrag weiter",
  replayLast: "Zum Ende",
  replayWhere: "Nach Eintrag {n} von {count}: Runde {round}, Zug von {turn}, {phase}",
  backToGame: "← Zurück zum Spiel",
  replayLink: "Wiederholung",
  calcBattle: "Schlacht",
  calcHint: "Angreifer, dann `vs`, dann Verteidiger: 3 inf 2 arm 1 ftr vs 4 inf 1 aa",
  calcAmphibious: "Landung von See",
  calcRun: "Berechnen",
  calcAttackers: "Angreifer",
  calcDefenders: "Verteidiger",
  calcAttackerWins: "Angreifer gewinnt",
  calcDefenderWins: "Verteidiger gewinnt",
  calcDraw: "Beide vernichtet",
  calcMethod: "Verfahren: {method}; die Schlacht folgt den Kampfregeln des Regelkerns.",
  options: "Optionen",
  noOptions: "Dieses Regelwerk hat keine Optionen.",
  defaultIs: "Vorgabe: {value}",
  optionJsonHint: "JSON-Wert",
  seats: "Plätze",
  power: "Macht",
  team: "Seite",
  player: "Spieler",
  seatMe: "Ich",
  seatOpen: "Offen",
  seatComputer: "Computer",
  seatAccount: "Konto",
  thinkMs: "Bedenkzeit für {power} (ms)",
  accountName: "Kontoname für {power}",
  publicGame: "Öffentlich (alle dürfen zusehen und freie Plätze einnehmen)",
  create: "Spiel anlegen",
  creating: "Wird angelegt…",
  badJson: "Option {name}: kein gültiger Wert ({message})",
  myGames: "Meine Spiele",
  openGames: "Offene Spiele",
  refresh: "Aktualisieren",
  noGames: "Noch keine Spiele.",
  noOpenGames: "Gerade keine offenen Spiele.",
  colRuleset: "Regelwerk",
  colStatus: "Stand",
  colTurn: "Am Zug",
  colMyPowers: "Meine Mächte",
  colSeats: "Plätze",
  colCreated: "Angelegt",
  colActions: "Aktionen",
  open: "Öffnen",
  openGame: "Spiel {id} öffnen",
  takeSeat: "{power} übernehmen",
  leaveSeat: "{power} verlassen",
  statusOpen: "wartet auf Spieler",
  statusPlaying: "läuft",
  statusOver: "beendet",
  seatTaken: "Du spielst jetzt {power}.",

  gameTitle: "Spiel {id}",
  backToLobby: "← Lobby",
  connection: "Verbindung",
  connOpen: "verbunden",
  connConnecting: "verbinde…",
  connClosed: "getrennt, neuer Versuch…",
  reconnect: "Neu verbinden",
  summary: "Spiel",
  round: "Runde",
  turn: "Zug",
  phase: "Phase",
  actor: "Entscheidet",
  myPowers: "Deine Mächte",
  watching: "Du schaust diesem Spiel zu.",
  banks: "Kassen (IPCs)",
  waitingFor: "Warte auf {power}…",
  waitingForPlayers: "Warte darauf, dass die freien Plätze besetzt werden.",
  gameOver: "Spiel beendet. Sieger: {winner}",
  gameOverNoWinner: "Spiel beendet.",
  yourDecision: "Deine Entscheidung: {what}",
  decisionFor: "{power} entscheidet",
  noItems: "Hier bleibt nur, die Phase zu beenden.",
  board: "Spielbrett",
  zoomIn: "Vergrößern",
  zoomOut: "Verkleinern",
  zoomFit: "Ganzes Brett zeigen",
  boardFallback: "Das gezeichnete Spielbrett ist nicht verfügbar; die Felder werden als Raster gezeigt.",
  boardHelp: "Ziehen verschiebt, Mausrad oder Knöpfe zoomen, ein Klick auf ein Feld zeigt seine Einheiten.",
  spaceInfo: "Gewähltes Feld",
  noUnits: "Keine Einheiten.",
  controlledBy: "Kontrolliert von {power}",
  ipcValue: "{n} IPCs wert",
  log: "Verlauf",
  alsoMoveTitle: "In einem Zug mitbewegen",
  alsoMove: "{count} {unit} hier",
  countOf: "Wie viele {unit}",
  noCommonDestination: "Kein Feld erreichen alle gewählten Einheitentypen auf einer Route.",
  incomeChart: "Einkommen je Runde",
  incomeNone: "Es wurde noch kein Einkommen gezahlt.",
  incomeFigures: "Die Zahlen",
  chat: "Chat",
  chatMessage: "Nachricht an die Mitspieler",
  chatPlaceholder: "Schreib etwas (Enter sendet, Umschalt+Enter: neue Zeile)",
  chatWatchOnly: "Nur die Spieler der Partie schreiben hier; du schaust zu.",
  chatSend: "Senden",
  sealed: "({what} von {power}, verdeckt)",
  sealedPurchase: "Einkauf",
  earlierOmitted: "(frühere Einträge werden nicht gezeigt)",
  undone: "(die letzte Aktion wurde zurückgenommen)",
  battles: "Schlachten in diesem Zug",
  battleLine: "{at}: {attacker} ({kind}), {result}, Runde {round}",
  purchased: "Gekauft, noch aufzustellen",

  decisionTitle: "Entscheidung",
  endPhase: "Phase beenden",
  undo: "Rückgängig",
  surrender: "Aufgeben",
  surrenderConfirm1: "Aufgeben? Die ganze Seite ({team}) gibt auf und verliert das Spiel.",
  surrenderConfirm2: "Wirklich sicher? Das lässt sich nicht zurücknehmen.",
  surrenderYes: "Ja, aufgeben",
  surrenderFinal: "Endgültig aufgeben",
  cancel: "Abbrechen",
  sending: "Wird gesendet…",
  purchase: "Einkauf",
  bank: "Kasse: {n} IPCs",
  costEach: "je {n} IPCs",
  upTo: "bis zu {n}",
  totalCost: "Summe: {total} von {bank} IPCs",
  buy: "Kaufen",
  moves: "Einheiten bewegen",
  stack: "{count} × {unit} in {from}",
  cannotMove: "kann nicht ziehen",
  routesCount: "{n} Ziele",
  chooseStack: "Wähle einen Stapel Einheiten, dann ein Ziel (auch per Klick auf ein hervorgehobenes Feld des Bretts).",
  count: "Wie viele",
  routeTo: "nach {to}",
  via: "über {path}",
  attackWins: "Angriff gewinnt {p}",
  bombingRaid: "Strategischer Bombenangriff",
  battlesToFight: "Schlachten",
  fight: "Eine Runde kämpfen in {at}",
  resolve: "Bis zum Ende kämpfen in {at}",
  rocket: "Rakete von {from} auf {at}",
  casualties: "Verluste in {at}",
  chooseHits: "Wähle {hits} Verluste ({chosen} gewählt).",
  takeLosses: "Diese Verluste hinnehmen",
  damaged: "beschädigt",
  pressOrRetreat: "Schlacht in {at}",
  continueBattle: "Weiterkämpfen",
  retreatTo: "Rückzug nach {to}",
  breakOff: "Abbrechen (Flugzeuge)",
  submergeTo: "U-Boote ziehen sich nach {to} zurück",
  place: "Einheiten aufstellen",
  placeAt: "Aufstellen in {at}",
  placeSubmit: "In {at} aufstellen",
  research: "Forschung",
  researchDice: "Forschungswürfel",
  researchChart: "Tabelle {n}",
  researchAim: "Ziel: {development}",
  rollResearch: "Würfeln",
  repair: "Reparatur in {at} ({damage} Schaden)",
  repairCount: "Zu reparierender Schaden in {at}",
  repairSubmit: "Reparieren",
  other: "Weitere Aktionen",
  errorTitle: "Abgelehnt",
  socketClosed: "Die Verbindung brach ab, bevor der Server antwortete.",
  socketStopped: "Die Verbindung ist geschlossen.",
  notSignedIn: "Melde dich an, um zu spielen.",

  correspondence: "Fernpartie",
  moveDays: "Zeit je Zug",
  moveDaysNone: "keine (live spielen)",
  dayOne: "1 Tag",
  daysN: "{n} Tage",
  vacationDays: "Urlaubstage",
  vacationDaysHint: "Tage, die jeder Spieler über die ganze Partie seinen Fristen zulegen darf (0–60); nur mit einer Zeit je Zug.",
  dice: "Würfel",
  diceSeeded: "mit Startwert (Rücknahme im Zug möglich)",
  diceServer: "Server",
  diceBeacon: "Zufallsbake",
  diceBeaconHint: "Baken-Würfel: jeder Wurf wartet einige Sekunden auf die nächste Runde einer öffentlichen Zufallsbake (drand): niemand, auch nicht der Server, kennt sie vorher.",
  diceBeaconLine: "Würfel: von der öffentlichen Zufallsbake ({scheme}); jeder Würfel ist jederzeit prüfbar",
  diceServerHint: "Server-Würfel: zu Beginn festgelegt, am Ende offengelegt: jeder kann sie prüfen. Nichts wird zurückgenommen.",
  clockAndDice: "Uhr und Würfel",
  clockRule: "{move} je Zug, {vacation} Urlaub für jeden Spieler",
  clockWaiting: "Wartet auf {account} ({power})",
  clockWaitingYou: "Wartet auf dich ({power})",
  clockIdle: "Die Uhr läuft nicht: die Partie wartet auf den Computer, einen freien Platz oder niemanden.",
  clockDeadline: "Frist: {date}",
  clockLeftDays: "noch {d} T {h} Std",
  clockLeftHours: "noch {h} Std {m} Min",
  clockOverdue: "Zeit abgelaufen",
  stageHalf: "die Hälfte der Zeit ist um",
  stageLate: "die Zeit ist fast um",
  stageExpired: "die Zeit ist abgelaufen",
  vacationLeft: "Deine verbleibenden Urlaubstage: {n}",
  vacationBanked: "davon {n} für deine nächste Wartezeit aufgehoben",
  vacationDaysLabel: "Urlaubstage nehmen",
  takeVacation: "Urlaub nehmen",
  claimHint: "Die Zeit von {account} ist abgelaufen: du kannst den Sieg beanspruchen.",
  claimWin: "Sieg beanspruchen",
  takenOverLine: "{power}: der Computer spielt für {account}",
  reclaimHint: "Deine Zeit ist abgelaufen, und der Computer spielt {powers} für dich.",
  reclaimSeats: "Meine Plätze zurücknehmen",
  diceSeededLine: "Würfel: vom Server mit geheimem Startwert",
  diceCommitted: "Würfel: festgelegt (SHA-256 {hash}…)",
  diceSeed: "Offengelegter Startwert: {seed}",
  diceVerify: "Lade die Aufzeichnung herunter und prüfe sie mit `warboard verify`.",
  downloadRecord: "Aufzeichnung herunterladen",
  receiptKept: "1 Quittung aufbewahrt",
  receiptsKept: "{n} Quittungen aufbewahrt",
  clockHalf: "Uhr: die Hälfte der Zeit für den Zug von {power} ist um ({account}; Frist {deadline})",
  clockLate: "Uhr: die Zeit für den Zug von {power} ist fast um ({account}; Frist {deadline})",
  clockExpired: "Uhr: die Zeit von {account} für {power} ist abgelaufen",
  clockClaimed: "Uhr: {account} beansprucht den Sieg; {side} geben auf",
  clockTakenOver: "Uhr: der Computer übernimmt {powers} von {account}",
  clockReclaimed: "Uhr: {account} nimmt {powers} zurück",
  clockVacation: "Uhr: {account} nimmt {days} Urlaub ({left} übrig)",
  clockOther: "Uhr: {kind}",
  ordersTitle: "Stehende Befehle",
  ordersIntro: "Deine Entscheidungen in Schlachten, im Voraus getroffen und sofort angewandt; was offen bleibt, wartet auf dich.",
  ordersLosses: "Reihenfolge der Verluste",
  ordersLossesHint: "Einheitentypen, der erste zuerst verloren, durch Kommas getrennt; leer: frag mich. Auf dem Brett: {types}",
  ordersSubs: "U-Boote",
  ordersAsk: "frag mich",
  ordersAlways: "immer abtauchen oder zurückziehen",
  ordersNever: "nie",
  ordersRetreat: "Rückzug (als Angreifer)",
  ordersRetreatNever: "nie: weiterkämpfen",
  ordersRetreatWhen: "wenn höchstens N Einheiten übrig sind",
  ordersRetreatN: "N (übrige Einheiten)",
  ordersSave: "Befehle speichern",
  ordersClear: "Befehle löschen",
  ordersSaved: "Gespeichert.",
  ordersCleared: "Gelöscht: jede Entscheidung wird erfragt.",
  ordersNone: "Keine stehenden Befehle: jede Entscheidung wird erfragt.",
  ordersUnknownUnit: "Kein Einheitentyp: {name}",
  settings: "Einstellungen",
  mailTitle: "Zug-Mail",
  mailIntro: "Eine Mail, wenn du in einer Partie am Zug bist, und Erinnerungen vor der Frist einer Fernpartie.",
  mailAddress: "Mail-Adresse",
  mailOn: "Schick mir Zug-Mails",
  mailSave: "Speichern",
  mailSaved: "Gespeichert.",
  mailSending: "Dieser Server verschickt Mails.",
  mailNotSending: "Dieser Server verschickt keine Mails (kein Mailserver eingerichtet); deine Einstellungen bleiben für später.",
  ladder: "Rangliste",
  ladderIntro: "Wertungen aus gewerteten Partien: Partien mit beweisbaren Würfeln (Server oder Zufallsbake) zwischen Konten, jede Seite in eigener Hand. Eine Wertung je Regelfamilie; eine mit ? markierte Wertung ist vorläufig, bis ihre Abweichung höchstens 110 beträgt.",
  ladderFamilies: "Regelfamilien",
  familyClassic: "Klassisch",
  familyEurope: "Europa",
  familyAnniversary: "Jubiläumsausgabe",
  familyAlternative: "Alternativ",
  ladderBoard: "Rangliste: {family}",
  ladderGames: "{n} gewertete Partien",
  ladderEmpty: "In dieser Familie gibt es noch keine gewerteten Partien.",
  colRank: "Platz",
  colPlayer: "Spieler",
  colRating: "Wertung",
  colDeviation: "Abweichung",
  colGames: "Partien",
  colTeamRating: "Team-Wertung",
  colTeamGames: "Team-Partien",
  provisional: "vorläufig",
  balanceTitle: "Seitenbilanz",
  balanceIntro: "Wie oft jede Seite die gewerteten Partien der Familie gewinnt, insgesamt und nach dem Gebot, das die Achse erhielt.",
  balanceAll: "Alle gewerteten Partien",
  balanceNoBid: "Kein Gebot",
  balanceBid: "Gebot von {n} IPCs",
  colAxisWins: "Siege der Achse",
  colAlliesWins: "Siege der Alliierten",
  colDraws: "Unentschieden",
  balanceEmpty: "Noch keine gewerteten Partien mit bekannten Seiten.",
  balanceUnknown: "Nicht gezählt: {n} gewertete Partien, deren Seiten nicht eine Achse und eine Alliierte waren.",
  backToLadder: "← Rangliste",
  playerRatings: "Wertungen",
  playerRank: "{rank} von {players}",
  playerNoGames: "{name} hat noch keine gewerteten Partien.",
  unknownPlayer: "Einen Spieler dieses Namens gibt es nicht.",
  ratingChartTitle: "Wertung nach jeder Partie",
  ratingChart: "Wertung nach jeder gewerteten Partie, eine Linie je Regelfamilie",
  teamRatingChartTitle: "Team-Wertung nach jeder Team-Partie",
  teamRatingChart: "Team-Wertung nach jeder gewerteten Team-Partie, eine Linie je Regelfamilie",
  ratingPoint: "{family}, Partie {n} ({date}): {rating}",
  ratingFigures: "Die Zahlen",
  colNumber: "Nr.",
  colEnded: "Beendet",
  colFamily: "Familie",
  sidesTitle: "Ergebnisse nach Seite",
  colSide: "Seite",
  colWins: "Siege",
  colLosses: "Niederlagen",
  sideUnknown: "Seite unbekannt",
  ratedGames: "Gewertete Partien",
  colOpponents: "Gegner",
  colPartners: "Partner",
  colResult: "Ergebnis",
  colHow: "Wie",
  colLinks: "Wiederholung und Aufzeichnung",
  resultWin: "gewonnen",
  resultLoss: "verloren",
  resultDraw: "unentschieden",
  howVictory: "Sieg nach den Regeln",
  howSurrender: "Aufgabe",
  howClaim: "beansprucht (Zeit abgelaufen)",
  recordLink: "Aufzeichnung",
  privateGame: "private Partie",

  // corrections by consent
  takeBackLabel: "Das Spiel bis vor Eintrag {n} zurücknehmen",
  takeBackTitle: "Korrektur vorschlagen",
  takeBackConfirm: "Vorschlagen, das Spiel bis vor Eintrag {n} zurückzunehmen? Die andere Seite muss zustimmen; seither gewürfelte Würfel bleiben in der Aufzeichnung.",
  takeBackConfirmLine: "Vorschlagen, das Spiel bis vor Eintrag {n} („{line}“) zurückzunehmen? Die andere Seite muss zustimmen; seither gewürfelte Würfel bleiben in der Aufzeichnung.",
  takeBackPropose: "Vorschlagen",
  correctionTitle: "Korrektur vorgeschlagen",
  correctionProposed: "{power} schlägt vor, das Spiel bis vor Eintrag {n} zurückzunehmen.",
  correctionProposedLine: "{power} schlägt vor, das Spiel bis vor Eintrag {n} („{line}“) zurückzunehmen.",
  correctionProposedChange: "{power} schlägt eine Korrektur vor: {what}.",
  correctionAsk: "Wer zustimmt, nimmt das Spiel zurück; seither gewürfelte Würfel bleiben in der Aufzeichnung. Geht das Spiel vorher weiter, verfällt der Vorschlag.",
  correctionAskChange: "Wer zustimmt, berichtigt die Stellung wie vorgeschlagen. Geht das Spiel vorher weiter, verfällt der Vorschlag.",
  correctionWaiting: "Die andere Seite stimmt zu oder lehnt ab. Geht das Spiel vorher weiter, verfällt der Vorschlag.",
  correctionWatching: "Die andere Seite stimmt zu oder lehnt ab.",
  correctionApprove: "Zustimmen",
  correctionDecline: "Ablehnen",
  correctionWithdraw: "Zurückziehen",
};

const UNITS: Record<"en" | "de", Record<string, string>> = {
  en: {
    infantry: "infantry", artillery: "artillery", armor: "armor", fighter: "fighter", bomber: "bomber",
    transport: "transport", submarine: "submarine", destroyer: "destroyer", cruiser: "cruiser",
    aircraft_carrier: "aircraft carrier", battleship: "battleship", aa_gun: "AA gun",
    industrial_complex: "industrial complex",
  },
  de: {
    infantry: "Infanterie", artillery: "Artillerie", armor: "Panzer", fighter: "Jäger", bomber: "Bomber",
    transport: "Transporter", submarine: "U-Boot", destroyer: "Zerstörer", cruiser: "Kreuzer",
    aircraft_carrier: "Flugzeugträger", battleship: "Schlachtschiff", aa_gun: "Flak",
    industrial_complex: "Industriekomplex",
  },
};

const PHASES: Record<"en" | "de", Record<string, string>> = {
  en: {
    research: "research", purchase: "purchase", combat_move: "combat move", combat: "combat",
    noncombat_move: "noncombat move", place: "place units", income: "collect income",
    payday: "payday", shopping: "shopping", turn: "turn",
    casualties: "casualties", press_or_retreat: "press on or retreat",
    attacker_submarines: "attacking submarines", defender_submarines: "defending submarines", game_over: "game over",
  },
  de: {
    research: "Forschung", purchase: "Einkauf", combat_move: "Kampfbewegung", combat: "Kampf",
    noncombat_move: "Nichtkampfbewegung", place: "Aufstellen", income: "Einkommen",
    payday: "Zahltag", shopping: "Einkauf", turn: "Zug",
    casualties: "Verluste", press_or_retreat: "Weiterkämpfen oder Rückzug",
    attacker_submarines: "angreifende U-Boote", defender_submarines: "verteidigende U-Boote", game_over: "Spielende",
  },
};

const POWERS_DE: Record<string, string> = {
  russia: "Sowjetunion", germany: "Deutschland", uk: "Vereinigtes Königreich", japan: "Japan",
  usa: "Vereinigte Staaten", italy: "Italien", china: "China",
  axis: "Achsenmächte", allies: "Alliierte",
};
const POWERS_EN: Record<string, string> = {
  russia: "Soviet Union", germany: "Germany", uk: "United Kingdom", japan: "Japan",
  usa: "United States", italy: "Italy", china: "China", axis: "Axis", allies: "Allies",
};

const WORDS: Record<"en" | "de", Record<string, string>> = {
  en: {
    land: "land", sea: "sea", bombing: "bombing", pending: "pending", ongoing: "ongoing",
    attacker_won: "attacker won", defender_won: "defender won", draw: "draw", retreated: "retreated",
    true: "yes", false: "no", open: "open", playing: "playing", over: "over", computer: "computer", neutral: "neutral",
  },
  de: {
    land: "Land", sea: "See", bombing: "Bombenangriff", pending: "steht aus", ongoing: "läuft",
    attacker_won: "Angreifer siegte", defender_won: "Verteidiger siegte", draw: "unentschieden", retreated: "Rückzug",
    true: "ja", false: "nein", open: "offen", playing: "läuft", over: "beendet", computer: "Computer", neutral: "neutral",
  },
};

export type Lang = "en" | "de";

function initialLang(): Lang {
  try {
    const saved = localStorage.getItem("warboard-lang");
    if (saved === "en" || saved === "de") return saved;
  } catch {
    /* storage blocked */
  }
  return (navigator.language || "en").toLowerCase().startsWith("de") ? "de" : "en";
}

let lang: Lang = initialLang();

export function currentLang(): Lang {
  return lang;
}

export function setLang(l: Lang): void {
  lang = l;
  try {
    localStorage.setItem("warboard-lang", l);
  } catch {
    /* storage blocked */
  }
  document.documentElement.lang = l;
}

/** The catalogue's text for `key`, with `{name}` placeholders filled. */
export function t(key: Key, vars?: Record<string, string | number>): string {
  const table: Record<Key, string> = lang === "de" ? de : en;
  let s = table[key] ?? en[key] ?? key;
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));
  return s;
}

function plain(id: string): string {
  return id.replace(/_/g, " ");
}

/** A number of days: "1 day", "3 days". */
export function daysText(n: number): string {
  return n === 1 ? t("dayOne") : t("daysN", { n });
}

/** A unit type's id from what a player wrote: the id itself, or its name
 * in either language ("AA gun", "Panzer"); null where none matches. */
export function unitIdOf(text: string): string | null {
  const w = text.trim().toLowerCase();
  const id = w.replace(/[\s-]+/g, "_");
  if (id in UNITS.en || ["ship", "tank", "plane"].includes(id)) return id;
  for (const table of [UNITS[lang], UNITS.en, UNITS.de]) {
    for (const [k, name] of Object.entries(table)) if (name.toLowerCase() === w) return k;
  }
  return null;
}

export function unitName(type: string): string {
  return UNITS[lang][type] ?? plain(type);
}

export function phaseName(phase: string): string {
  return PHASES[lang][phase] ?? plain(phase);
}

/** A power's (or team's) name; `fallback` is the ruleset's English name. */
export function powerName(id: string, fallback?: string): string {
  if (lang === "de" && POWERS_DE[id]) return POWERS_DE[id];
  return fallback ?? POWERS_EN[id] ?? plain(id);
}

/** A refusal or error as the player reads it: in German from its stable
 * code (the server's sentence is the English wording), with the spaces,
 * units and powers it names where the server sent them. */
export function errorText(code: string, message: string, args?: Record<string, unknown>): string {
  if (lang !== "de") return message;
  const template = REFUSALS_DE[code];
  if (!template) return message;
  const [generic, specific] = Array.isArray(template) ? template : [template, undefined];
  const filled = specific && args ? fill(specific, args) : null;
  return filled ?? generic;
}

/** A story line as the player reads it: the server's English words, or
 * in German from what the line says (`key`, `args`). Dice and losses keep
 * the indent that sets them under their battle. */
export function storyText(line: { text: string; key?: string; args?: Record<string, unknown> }): string {
  if (lang !== "de" || !line.key || !line.args) return line.text;
  const template = STORY_DE[line.key];
  const filled = template ? fill(template, line.args) : null;
  if (filled === null) return line.text;
  const indent = /^\s*/.exec(line.text)?.[0] ?? "";
  return indent + filled;
}

function purposeName(purpose: string): string {
  for (const [pattern, german] of PURPOSES_DE) if (pattern.test(purpose)) return purpose.replace(pattern, german);
  return purpose;
}

/** A template with every `{name}` taken from `args`, or null where one is missing. */
function fill(template: string, args: Record<string, unknown>): string | null {
  let missing = false;
  const out = template.replace(/\{(\w+)\}/g, (_m, k: string) => {
    const v = args[k];
    if (v === undefined || v === null) {
      missing = true;
      return "";
    }
    if (k.startsWith("unit") && k !== "units") return unitName(String(v));
    if (k.startsWith("power") || k === "winner") return powerName(String(v));
    if (k === "phase") return phaseName(String(v));
    if (k === "purpose") return purposeName(String(v));
    if (k === "development") return String(v).replace(/_/g, " ");
    return String(v);
  });
  return missing ? null : out;
}

/** Each rule option's label (the option's documentation line stays the
 * ruleset's own, in English); an option missing here shows its name. */
const OPTIONS: Record<"en" | "de", Record<string, string>> = {
  en: {
    aa_hits_chosen: "AA hits chosen by the owner",
    assisting_teammates: "Teammates may lend units",
    axis_bonus_points: "Axis bonus points",
    axis_economic_victory: "Axis economic victory (IPCs)",
    bombing_cap: "Bombing damage cap",
    capital_victory_checked: "When capital victory is checked",
    captured_capitals: "Captured capitals",
    combining_nations: "Combined nations",
    dardanelles_closed: "Dardanelles closed",
    defending_submarines_withdraw: "Defending submarines may withdraw",
    factories_and_aa_stop_blitz: "Factories and AA guns stop a blitz",
    fair_buying: "Fair buying",
    fighter_escorts_interceptors: "Fighter escorts and interceptors",
    fighters_placed_on_carriers: "New fighters placed on carriers",
    limited_war: "Limited war",
    low_luck: "Low Luck",
    national_objectives: "National objectives",
    no_capitals: "No capitals",
    original_factories_unlimited: "Original factories place without limit",
    raid_air_combat: "Air combat over raids",
    random_turn_order: "Random turn order",
    relocated_capitals: "Relocated capitals",
    repair_every_power: "Every power repairs",
    research_breakthrough: "Research breakthrough",
    russia_first_turn_restricted: "Soviet first turn restricted",
    ships_placed_in_enemy_zones: "Ships placed into enemy zones",
    sub_withdrawal_text: "Submarine withdrawal wording",
    submarines_hit_aircraft: "Submarines hit aircraft",
    teams: "Teams",
    unplaced_units_kept: "Unplaced units kept",
    victory_cities: "Victory cities",
    weapons_development: "Weapons development",
  },
  de: {
    aa_hits_chosen: "Flak-Treffer wählt der Besitzer",
    assisting_teammates: "Teampartner dürfen Einheiten leihen",
    axis_bonus_points: "Bonuspunkte der Achse",
    axis_economic_victory: "Wirtschaftssieg der Achse (IPCs)",
    bombing_cap: "Obergrenze des Bombenschadens",
    capital_victory_checked: "Wann der Hauptstadtsieg geprüft wird",
    captured_capitals: "Eroberte Hauptstädte",
    combining_nations: "Vereinte Nationen",
    dardanelles_closed: "Dardanellen geschlossen",
    defending_submarines_withdraw: "Verteidigende U-Boote dürfen abtauchen",
    factories_and_aa_stop_blitz: "Industriekomplexe und Flak stoppen den Blitz",
    fair_buying: "Faires Einkaufen",
    fighter_escorts_interceptors: "Jäger als Eskorte und Abfangjäger",
    fighters_placed_on_carriers: "Neue Jäger auf Flugzeugträgern",
    limited_war: "Begrenzter Krieg",
    low_luck: "Low Luck (wenig Glück)",
    national_objectives: "Nationale Ziele",
    no_capitals: "Keine Hauptstädte",
    original_factories_unlimited: "Ursprüngliche Industriekomplexe ohne Grenze",
    raid_air_combat: "Luftkampf bei Bombenangriffen",
    random_turn_order: "Zufällige Zugreihenfolge",
    relocated_capitals: "Verlegte Hauptstädte",
    repair_every_power: "Jede Macht repariert",
    research_breakthrough: "Durchbruch in der Forschung",
    russia_first_turn_restricted: "Erster sowjetischer Zug beschränkt",
    ships_placed_in_enemy_zones: "Schiffe in feindliche Seezonen stellen",
    sub_withdrawal_text: "Wortlaut beim Abtauchen der U-Boote",
    submarines_hit_aircraft: "U-Boote treffen Flugzeuge",
    teams: "Teams",
    unplaced_units_kept: "Nicht aufgestellte Einheiten bleiben",
    victory_cities: "Siegesstädte",
    weapons_development: "Waffenentwicklung",
  },
};

export function optionLabel(name: string): string {
  return OPTIONS[lang][name] ?? OPTIONS.en[name] ?? plain(name);
}

/** A ruleset family's name (the ladder's families: docs/ladder.md). */
export function familyName(family: string): string {
  const key = ({ classic: "familyClassic", europe: "familyEurope", anniversary: "familyAnniversary", alternative: "familyAlternative" } as Record<string, Key>)[family];
  return key ? t(key) : plain(family);
}

export function word(w: string): string {
  return WORDS[lang][w] ?? plain(w);
}

/** A chance to a tenth of a percent, never shown as 0% or 100% unless it is
 * (as the terminal shows odds: 99.96% is not a sure thing). */
export function percent(p: number): string {
  if (p <= 0) return "0%";
  if (p >= 1) return "100%";
  const tenths = Math.round(p * 1000);
  if (tenths >= 1000) return ">99.9%";
  if (tenths <= 0) return "<0.1%";
  return `${(tenths / 10).toFixed(1)}%`;
}
