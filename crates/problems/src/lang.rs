//! French and German input (Popeye's `DebutProbleme` and `AnfangProblem`): the language is fixed
//! by the first token of the input; every keyword after it is looked up in that language's table
//! (case-insensitive, unique prefix within that table, as in Popeye) and mapped to the English
//! keyword the parser understands. Piece codes are exact per-language codes.
//!
//! The word lists are Popeye's input vocabulary (names only), index-aligned French / German /
//! English.

use crate::input::match_keyword;

/// The input language, chosen by the first token.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Language {
    #[default]
    English,
    French,
    German,
}

/// A category of keywords (each has its own table, so prefixes are unique per category).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    Command,
    Option,
    Condition,
    /// Parameters of conditions (Circe variants, types, AntiCirce variants, ...).
    ConditionParameter,
    Colour,
    Attribute,
    Twin,
    Piece,
}

impl Category {
    /// Every category.
    pub const ALL: [Category; 8] = [
        Category::Command,
        Category::Option,
        Category::Condition,
        Category::ConditionParameter,
        Category::Colour,
        Category::Attribute,
        Category::Twin,
        Category::Piece,
    ];
}

/// The language that a `BeginProblem` word names, if it is one.
pub fn language_of_begin(word: &str) -> Option<Language> {
    const BEGIN: &[&str] = &["beginproblem", "debutprobleme", "anfangproblem"];
    match match_keyword(word, BEGIN)? {
        0 => Some(Language::English),
        1 => Some(Language::French),
        _ => Some(Language::German),
    }
}

// Index-aligned tables: [French, German, English].

const COMMANDS: [&str; 3] = [
    "debutprobleme finprobleme asuivre remarque senonce auteur source pieces condition option enonce protocol titre prix forsyth jumeau zeroposition latex pieceslatex positioninitialepartie",
    "anfangproblem endeproblem weiteresproblem bemerkung sforderung autor quelle steine bedingung option forderung protokoll titel auszeichnung forsyth zwilling nullstellung latex latexsteine partieanfangsstellung",
    "beginproblem endproblem nextproblem remark sstipulation author origin pieces condition option stipulation protocol title award forsyth twin zeroposition latex latexpieces initialgamearray",
];

/// The last entry (`MatesIn1`, German `MattsIn1`) is newer than the French table we know: its
/// French word is a placeholder that no input token matches.
const OPTIONS: [&str; 3] = [
    "Defense Apparent ApparentSeul Variantes Trace Enroute SansRB Duplex SansRN Menace SansMenace Essais MaxSolutions MaxCasesFuites Search MultiSolutions NonSymetrique NonTrivial RetiensPieceMatante EnPassant SansEchiquier SansVariantesCourtes DemiDuplex ApresCle Intelligent MaxTemps SansRoquer Quodlibet FinApresSolutionsCourtes Bip SansGrille AjouteGrille RoquesMutuellementExclusifs ButEstFin optionnonpubliee CoupsVides JusquAuCoup TrivialEssaiSupprimer ?MatesIn1",
    "Widerlegung Satzspiel WeissBeginnt Varianten Zugnummern StartZugnummer OhneWk Duplex OhneSk Drohung OhneDrohung Verfuehrung MaxLoesungen MaxFluchtFelder Suchen MehrereLoesungen KeineSymmetrie NichtTrivial HalteMattsetzendenStein EnPassant OhneBrett OhneKurzVarianten HalbDuplex NachSchluessel Intelligent MaxZeit KeineRochade Quodlibet StopNachKurzloesungen Pieps OhneGitter ZeichneGitter RochadenGegenseitigAusschliessend ZielIstEnde nichtpublizierteoption NullZuege BisZugnummer TrivialeFehlversucheUnterdruecken MattsIn1",
    "Defence SetPlay WhiteToPlay Variation MoveNumbers StartMoveNumber NoWk Duplex NoBk Threat NoThreat Try MaxSolutions MaxFlightsquares Search MultiSolutions NoSymmetry NonTrivial KeepMatingPiece EnPassant NoBoard NoShortVariations HalfDuplex PostKeyPlay Intelligent MaxTime NoCastling Quodlibet StopOnShortSolutions Beep SuppressGrid WriteGrid CastlingMutuallyExclusive GoalIsEnd unpublishedoption NullMoves UpToMoveNumber TrivialTriesAvoid MatesIn1",
];

const CONDITIONS: [&str; 3] = [
    "Circe CirceMalefique Madrasi Volage Hypervolage Bichromatique Monochromatique Grille Koeko NoirBordCoup BlancBordCoup Leofamily Chinoises Patrouille CirceEchange SansPrises Immun ImmunMalefique ContactGrille Imitator CavalierMajeur Haan CirceCameleon CirceCouscous CirceEquipollents FileCirce NoirMaximum NoirMinimum BlancMaximum BlancMinimum CaseMagique Sentinelles Tibet DoubleTibet CirceDiagramme Trou NoirPriseForce BlancPriseForce RoisReflecteurs RoisTransmutes NoirPoursuite BlancPoursuite Duelliste CirceParrain SansIProm CirceSymetrique EchecsVogtlaender EchecsEinstein Bicolores KoekoNouveaux CirceClone AntiCirce FileCirceMalefique CirceAntipoden CirceCloneMalefique AntiCirceMalefique AntiCirceDiagramme AntiFileCirce AntiCirceSymetrique AntiFileCirceMalefique AntiCirceAntipoden AntiCirceEquipollents ImmunFile ImmunDiagramme ImmunFileMalefique ImmunSymmetrique ImmunAntipoden ImmunEquipollents ReversEchecsEinstein SuperCirce Degradierung NorskSjakk EchecsTraitor EchecsAndernach BlancCaseForce BlancCaseForceConsequent NoirCaseForce NoirCaseForceConsequent EchecsCameleon EchecsFonctionnaire EchecsGlasgow EchecsAntiAndernach FrischAufCirce CirceMalefiqueVerticale Isardam SansEchecs CirceDiametrale PromSeul RankCirce EchecsExclusif MarsCirce MarsCirceMalefique EchecsPhantom BlancRoiReflecteur NoirRoiReflecteur BlancRoiTransmute NoirRoiTransmute EchecsAntiEinstein CirceCouscousMalefique NoirCaseRoyal BlancCaseRoyal EchecsBrunner EchecsPlus CirceAssassin EchecsPatience EchecsRepublicains EchecsExtinction EchecsCentral ActuatedRevolvingBoard EchecsMessigny Woozles BiWoozles Heffalumps BiHeffalumps BlancCasePromotion NoirCasePromotion SansBlancPromotion SansNoirPromotion EchecsEiffel NoirUltraSchachZwang BlancUltraSchachZwang ActuatedRevolvingCentre ShieldedKings NONUTILISEACTUELLEMENT EchecsCameleonLigne BlancSansPrises NoirSansPrises EchecsAvril EchecsAlphabetiques CirceTurncoats CirceDoubleAgents AMU SingleBox MAFF OWU BlancRoisOscillant NoirRoisOscillant AntiRois AntiMarsCirce AntiMarsMalefiqueCirce AntiMarsAntipodeanCirce BlancSuperRoiTransmute NoirSuperRoiTransmute AntiSuperCirce UltraPatrouille RoisEchanges DynastieRoyale SAT StrictSAT Take&MakeEchecs NoirSynchronCoup BlancSynchronCoup NoirAntiSynchronCoup BlancAntiSynchronCoup Masand BGL NoirEchecs AnnanEchecs PionNormale Elliuortap VaultingKings BlancVaultingKing NoirVaultingKing EchecsProtee EchecsGeneve CameleonPoursuite AntiKoeko EchecsRoque QuiPerdGagne Disparate EchecsGhost EchecsHantes EchecsProvacateurs CirceCage Dummy Football ContraParrain RoisKobul EchangeRoque BlancEchecsAlphabetiques NoirEchecsAlphabetiques CirceTake&Make Supergardes TrousDeVer EchecsMarins EchecsUltramarins Retour FaceAFace DosADos JoueAJoue CameleonSequence AntiCloneCirce EchecsSnek EchecsSnekCirculaires DernierePrise EchecsArgentins PiecesPerdues ParalysePartielle CirceSymetriqueVerticale CirceSymetriqueHorizontale AntiCirceSymetriqueVerticale AntiCirceSymetriqueHorizontale ImmuneSymetriqueVerticale ImmuneSymetriqueHorizontale LeseMajeste Rokagogo Breton Make&TakeEchecs ReflexionCentrale AnnanEchecs MasandGeneralise Bolero BoleroInverse Influenceur EchangeRole NoirMaxDister NoirMinDister BlancMaxDister BlancMinDister SerieCapture DarkSide Leffie Pepo CASTEchecs CASTInverses",
    "Circe SpiegelCirce Madrasi Volage Hypervolage BichromesSchach MonochromesSchach Gitterschach KoeKo SchwarzerRandzueger WeisserRandzueger Leofamily ChinesischesSchach PatrouilleSchach PlatzwechselCirce Ohneschlag Immunschach SpiegelImmunschach KontaktGitter Imitator CavalierMajeur HaanerSchach ChamaeleonCirce CouscousCirce EquipollentsCirce FileCirce SchwarzerLaengstzueger SchwarzerKuerzestzueger WeisserLaengstzueger WeisserKuerzestzueger MagischeFelder Sentinelles TibetSchach DoppeltibetSchach DiagrammCirce Loch SchwarzerSchlagzwang WeisserSchlagzwang ReflektierendeKoenige TransmutierendeKoenige SchwarzerVerfolgungszueger WeisserVerfolgungszueger Duellantenschach CirceParrain OhneIUW SymmetrieCirce VogtlaenderSchach EinsteinSchach Bicolores NeuKoeko CirceClone AntiCirce SpiegelFileCirce AntipodenCirce SpiegelCirceclone AntiSpiegelCirce AntiDiagrammCirce AntiFileCirce AntiSymmetrieCirce AntiSpiegelFileCirce AntiAntipodenCirce AntiEquipollentsCirce FileImmunSchach DiagrammImmunSchach SpiegelFileImmunSchach SymmetrieImmunSchach AntipodenImmunSchach EquipollentsImmunSchach ReversesEinsteinSchach SuperCirce Degradierung NorskSjakk TraitorChess AndernachSchach WeissesZwangsfeld WeissesKonsequentesZwangsfeld SchwarzesZwangsfeld SchwarzesKonsequentesZwangsfeld ChamaeleonSchach BeamtenSchach GlasgowSchach AntiAndernachSchach FrischAufCirce VertikalesSpiegelCirce Isardam OhneSchach DiametralCirce UWnur RankCirce ExklusivSchach MarsCirce MarsSpiegelCirce PhantomSchach WeisserReflektierenderKoenig SchwarzerReflektierenderKoenig WeisserTransmutierenderKoenig SchwarzerTransmutierenderKoenig AntiEinsteinSchach SpiegelCouscousCirce SchwarzesKoeniglichesFeld WeissesKoeniglichesFeld BrunnerSchach PlusSchach AssassinCirce PatienceSchach RepublikanerSchach AusrottungsSchach ZentralSchach ActuatedRevolvingBoard MessignySchach Woozles BiWoozles Heffalumps BiHeffalumps UWFeldWeiss UWFeldSchwarz OhneWeissUW OhneSchwarzUW EiffelSchach SchwarzerUltraSchachZwang WeisserUltraSchachZwang ActuatedRevolvingCentre SchutzKoenige ZURZEITUNVERWENDET LinienChamaeleonSchach WeisserOhneSchlag SchwarzerOhneSchlag Aprilschach AlphabetischesSchach TurncoatCirce DoppelAgentenCirce AMU NurPartiesatzSteine MAFF OWU WeisseOszillierendeKoenige SchwarzeOszillierendeKoenige AntiKoenige AntiMarsCirce AntiMarsMalefiqueCirce AntiMarsAntipodeanCirce WeisserSuperTransmutierenderKoenig SchwarzerSuperTransmutierenderKoenig AntiSuperCirce UltraPatrouille TauschKoenige KoenigsDynastie SAT StrictSAT Take&MakeSchach SchwarzerSynchronZueger WeisserSynchronZueger SchwarzerAntiSynchronZueger WeisserAntiSynchronZueger Masand BGL SchwarzSchaecher Annanschach NormalBauern Elliuortap VaultingKings WeisserVaultingKing SchwarzerVaultingKing ProteischesSchach GenferSchach ChamaeleonVerfolgung AntiKoeko RochadeSchach Schlagschach Disparate Geisterschach Spukschach ProvokationSchach KaefigCirce Dummy Fussball KontraParrain KobulKoenige PlatzwechselRochade WeissesAlphabetischesSchach SchwarzesAlphabetischesSchach CirceTake&Make SuperDeckungen Wurmloecher MarinesSchach UltramarinesSchach NachHause AngesichtZuAngesicht RueckenAnRuecken WangeAnWange Chamaeleonsequenz AntiCloneCirce SnekSchach SnekZirkulaerSchach LetzterSchlag ArgentinischesSchach VerloreneSteine PartielleParalyse VertikaleSymmetrieCirce HorizontaleSymmetrieCirce VertikaleAntiSymmetrieCirce HorizontaleAntiSymmetrieCirce ImmuneVertikaleSymmetrie ImmuneHorizontaleSymmetrie LeseMajeste Rokagogo Breton Make&TakeSchach Punktspiegelung Nannaschach MasandVerallgemeinert Bolero BoleroInvers Influencer Rollentausch SchwarzerMaxDister SchwarzerMinDister WeisserMaxDister WeisserMinDister SerienSchlag DarkSide Leffie Pepo CASTSchach CASTInvers",
    // English; index 43 is Popeye's `ParrainCirce`, written `CirceParrain` here (mysl's spelling).
    "Circe MirrorCirce Madrasi Volage Hypervolage BichromChess MonochromChess GridChess KoeKo BlackEdgeMover WhiteEdgeMover Leofamily ChineseChess Patrouille PWC NoCapture ImmunChess MirrorImmunChess ContactGridChess Imitator CavalierMajeur HaanerChess ChameleonCirce CouscousCirce EquipollentsCirce FileCirce BlackMaximummer BlackMinimummer WhiteMaximummer WhiteMinimummer MagicSquares Sentinelles Tibet DoubleTibet DiagramCirce Hole BlackMustCapture WhiteMustCapture ReflectiveKings TransmutedKings BlackFollowMyLeader WhiteFollowMyLeader DuellistChess CirceParrain NoIProm SymmetryCirce VogtlaenderChess EinsteinChess Bicolores NewKoeko CirceClone AntiCirce MirrorFileCirce AntipodeanCirce MirrorCirceClone MirrorAntiCirce DiagramAntiCirce FileAntiCirce SymmetryAntiCirce MirrorFileAntiCirce AntipodeanAntiCirce EquipollentsAntiCirce FileImmunChess DiagramImmunChess MirrorFileImmunChess SymmetryImmunChess AntipodeanImmunChess EquipollentsImmunChess ReversalEinsteinChess SuperCirce RelegationChess NorskSjakk TraitorChess AndernachChess WhiteForcedSquare WhiteConsequentForcedSquare BlackForcedSquare BlackConsequentForcedSquare ChameleonChess FunctionaryChess GlasgowChess AntiAndernachChess FrischAufCirce VerticalMirrorCirce Isardam ChecklessChess DiametralCirce PromOnly RankCirce ExclusiveChess MarsCirce MarsMirrorCirce PhantomChess WhiteReflectiveKing BlackReflectiveKing WhiteTransmutedKing BlackTransmutedKing AntiEinsteinChess MirrorCouscousCirce BlackRoyalSquare WhiteRoyalSquare BrunnerChess PlusChess CirceAssassin PatienceChess RepublicanChess ExtinctionChess CentralChess ActuatedRevolvingBoard MessignyChess Woozles BiWoozles Heffalumps BiHeffalumps WhitePromSquares BlackPromSquares NoWhitePromotion NoBlackPromotion EiffelChess BlackUltraSchachZwang WhiteUltraSchachZwang ActuatedRevolvingCentre ShieldedKings CURRENTLYUNUSED LineChameleonChess NoWhiteCapture NoBlackCapture AprilChess AlphabeticChess CirceTurncoats CirceDoubleAgents AMU SingleBox MAFF OWU WhiteOscillatingKings BlackOscillatingKings AntiKings AntiMarsCirce AntiMarsMirrorCirce AntiMarsAntipodeanCirce WhiteSuperTransmutingKing BlackSuperTransmutingKing AntiSuperCirce UltraPatrol SwappingKings RoyalDynasty SAT StrictSAT Take&MakeChess BlackSynchronMover WhiteSynchronMover BlackAntiSynchronMover WhiteAntiSynchronMover Masand BGL BlackChecks AnnanChess NormalPawn Lortap VaultingKings WhiteVaultingKing BlackVaultingKing ProteanChess GenevaChess ChameleonPursuit AntiKoeko CastlingChess LosingChess Disparate GhostChess HauntedChess ProvocationChess CageCirce Dummy Football ContraParrain KobulKings ExchangeCastling WhiteAlphabeticChess BlackAlphabeticChess CirceTake&Make SuperGuards Wormholes MarineChess UltramarineChess BackHome FaceToFace BackToBack CheekToCheek ChameleonSequence AntiCloneCirce SnekChess SnekCircleChess LastCapture ArgentinianChess LostPieces PartialParalysis VerticalSymmetryCirce HorizontalSymmetryCirce VerticalSymmetryAntiCirce HorizontalSymmetryAntiCirce ImmuneVerticalSymmetry ImmuneHorizontalSymmetry LeseMajeste Rokagogo Breton Make&TakeChess PointReflection NannaChess MasandGeneralised Bolero BoleroInverse Influencer RoleExchange BlackMaxDister BlackMinDister WhiteMaxDister WhiteMinDister SeriesCapture DarkSide Leffie Pepo CASTChess CASTInverse",
];

/// Condition parameters: Circe variants, lettered and numbered types, Breton variants, Koeko,
/// Kobul, Grid, Sentinelles variants, mummer strictness, vaulting kings, extra condition words.
const CONDITION_PARAMETERS: [&str; 3] = [
    "RexInclusif RexExclusif Malefique Assassin Diametral MalefiqueVerticale Clone Chameleon Turncoats Couscous CoupDernier Equipollents Parrain ContraParrain Cage Rangee Colonne Symetrie VerticaleSymetrique HorizontaleSymetrique Diagramme Echange Antipodes Take&Make Super Avril Frischauf Calvet Cheylan Stricte Relache Volcanique Parachute Einstein ReversEinstein TypeA TypeB TypeC TypeD Type1 Type2 Type3 Adverse Chromatique PY Voisin Blancs Noirs VerticalDecalage HorizontalDecalage DiagonalDecalage Orthogonale Irreguliere LigneGrille PionPropre PionAdvers PionNeutre MaximumNoir MaximumBlanc MaximumTotal ParaSentinelles Berolina exact ultra Transmute Maximum UltraSchachZwang",
    "RexInklusive RexExklusive Spiegel Assassin Diametral VertikalSpiegel Clone Chamaeleon Turncoat Couscous LetzterZug Equipollents Parrain ContraParrain Kaefig Reihe File Symmetrie VertikaleSymmetrie HorizontaleSymmetrie Diagramm Platzwechsel Antipoden Take&Make Super April Frischauf Calvet Cheylan Strikt Locker Vulkan Fallschirm Einstein ReversesEinstein TypA TypB TypC TypD Typ1 Typ2 Typ3 Advers Chromatisch PY Nachbar Weiss Schwarz VertikalVerschieben HorizontalVerschieben DiagonalVerschieben Orthogonal Unregelmaessig GitterLinie PionPropre PionAdvers PionNeutre MaximumSchwarz MaximumWeiss MaximumTotal ParaSentinelles Berolina exakt Ultra Transmutierende Laengstzueger UltraSchachZwang",
    "RexInclusive RexExclusive Mirror Assassin Diametral VerticalMirror Clone Chameleon Turncoats Couscous LastMove Equipollents Parrain ContraParrain Cage Rank File Symmetry VerticalSymmetry HorizontalSymmetry Diagram PWC Antipodes Take&Make Super April Frischauf Calvet Cheylan Strict Relaxed Volcanic Parachute Einstein ReversalEinstein TypeA TypeB TypeC TypeD Type1 Type2 Type3 Adverse Chromatic PY Neighbour White Black VerticalShift HorizontalShift DiagonalShift Orthogonal Irregular GridLine PionPropre PionAdvers PionNeutre MaximumBlack MaximumWhite MaximumTotal ParaSentinelles Berolina exact ultra Transmuting Maximummer UltraSchachZwang",
];

const COLOURS: [&str; 3] =
    ["Blanc Noir Neutre TotalInvisible", "Weiss Schwarz Neutral TotalUnsichtbar", "White Black Neutral TotalInvisible"];

const ATTRIBUTES: [&str; 3] = [
    "Royale Kamikaze Paralysante Cameleon Jigger Volage Fonctionnaire DemiNeutre CouleurEchangeantSautoir Protee Magique Imprenable Patrouille Frischauf Bul Dob",
    "Koeniglich Kamikaze Paralysierend Chamaeleon Jigger Volage Beamtet HalbNeutral SprungbockFarbeWechselnd Proteisch Magisch Unschlagbar Patrouille Frischauf Bul Dob",
    "Royal Kamikaze Paralysing Chameleon Jigger Volage Functionary HalfNeutral HurdleColourChanging Protean Magic Uncapturable Patrol Frischauf Bul Dob",
];

const TWIN: [&str; 3] = [
    "deplacement echange enonce senonce ajoute ote enplus rotation condition CouleurEchange miroir translation remplace",
    "versetze tausche Forderung SForderung hinzufuegen entferne ferner Drehung Bedingung Farbwechsel Spiegelung Verschiebung ersetze",
    "move exchange stipulation sstipulation add remove continued rotate condition PolishType mirror shift substitute",
];

/// Piece codes (Popeye's walks 2..=160: king, pawn, queen, knight, rook, bishop, then the fairy
/// pieces).
const PIECES: [&str; 3] = [
    "r p d c t f le ma pa va ro s n z ch gi cc bu vi al fe da li eq l pb am im pr g an ec v dr ka cs uu ha e ai m ar fr ca sn pi cn zn gn sc sz sg cd cr ea ct bs sp tl fl si tr ne o eh mo tc fc ao oa st sf re bt gt sk cy sa rl rs ok 37 s2 s3 16 24 35 ds sr or 15 25 gl lt lf ln vs fs bi el na et at mt ef af mf ra so mg 36 nl ml mm a dn la bo qa qf qq b1 b2 b3 pc cl pv lr ze nr n2 n4 n1 n3 qn dt df no sb se sm su kl ko sv ba gy cm po pm bm ep dg fa lo sl as os hc",
    "k b d s t l le ma pa va ro g n z ca gi wf bu we al fe da li ne h bb am kn pr gn an ei wa dr ka ss uu ha el ad sp er rl kl nh du cr zr gr ch zh gh ds rs eq ct bs sb tl ll si tr nd o rd mo tj lj ao oa th lh ek pf pn sk cy kg rn rh ok 37 g2 g3 16 24 35 dg kh or 15 25 gl ht hl hn wr fr bi et na tc ta ts lc la ls ra so mg 36 nl ml mm f de he bo qe qf od b1 b2 b3 cb rp rb lr ze nr s2 s4 s1 s3 qn dt dl no uh bh gu gb lk ko sh sc gy ms po mb mc st se fa lo sa ah oh hk",
    "k p q s r b le ma pa va ro g n z ca gi rf bu we al fe da li ne l bp am em pr gn an sq wa dr ka ss uu ha m ea sw ar rb c nh du cr zr gr ch zh gh ds bk eq ct bs sp rl bl si tr nd o eh mo rr br ao oa rh bh ek bt gt sk cy cg rn rp ok 37 g2 g3 16 24 35 dg kh or 15 25 gl lr lb ln wr fr bi et na rm re rw bm be bw ra so mg 36 nl ml mm f do rt bo qe qf qq b1 b2 b3 cp rk pp ls ze bn s2 s4 s1 s3 qn dk db no th lh ge gf kl ko kp sh gy ms po mp mh st se fa lo sa ah oh hc",
];

fn tables(cat: Category) -> &'static [&'static str; 3] {
    match cat {
        Category::Command => &COMMANDS,
        Category::Option => &OPTIONS,
        Category::Condition => &CONDITIONS,
        Category::ConditionParameter => &CONDITION_PARAMETERS,
        Category::Colour => &COLOURS,
        Category::Attribute => &ATTRIBUTES,
        Category::Twin => &TWIN,
        Category::Piece => &PIECES,
    }
}

fn index(lang: Language) -> usize {
    match lang {
        Language::French => 0,
        Language::German => 1,
        Language::English => 2,
    }
}

/// The lowercase words of a table.
fn words(lang: Language, cat: Category) -> Vec<String> {
    tables(cat)[index(lang)].split_whitespace().map(|w| w.to_ascii_lowercase()).collect()
}

/// The English word for `word` of category `cat` in language `lang`, spelt as in the English
/// table (for pieces the uppercase English code): a unique prefix within the language's own table
/// (pieces: the exact code), or `None` if the word is not one of that category.
pub fn to_english(lang: Language, cat: Category, word: &str) -> Option<String> {
    let own = words(lang, cat);
    let i = if cat == Category::Piece {
        let w = word.to_ascii_lowercase();
        own.iter().position(|c| *c == w)?
    } else {
        let refs: Vec<&str> = own.iter().map(|s| s.as_str()).collect();
        match_keyword(word, &refs)?
    };
    let english = tables(cat)[2].split_whitespace().nth(i)?;
    Some(if cat == Category::Piece { english.to_ascii_uppercase() } else { english.to_string() })
}

/// Like [`to_english`], but only for the exact word (no prefix).
pub fn to_english_exact(lang: Language, cat: Category, word: &str) -> Option<String> {
    let i = tables(cat)[index(lang)].split_whitespace().position(|w| w.eq_ignore_ascii_case(word))?;
    tables(cat)[2].split_whitespace().nth(i).map(|w| w.to_string())
}

/// A word of a `Condition` command (or a twin's condition) in English: a parameter named exactly,
/// else a condition name (unique prefix), else a parameter (unique prefix), else the word as it
/// is (squares, numbers).
pub fn condition_word(lang: Language, word: &str) -> String {
    if lang == Language::English {
        return word.to_string();
    }
    to_english_exact(lang, Category::ConditionParameter, word)
        .or_else(|| to_english(lang, Category::Condition, word))
        .or_else(|| to_english(lang, Category::ConditionParameter, word))
        .unwrap_or_else(|| word.to_string())
}

/// The word for English `word` (exact, case-insensitive) of category `cat` in language `lang`,
/// as Popeye spells it (for tests and round trips).
pub fn from_english(lang: Language, cat: Category, word: &str) -> Option<&'static str> {
    let i = tables(cat)[2].split_whitespace().position(|w| w.eq_ignore_ascii_case(word))?;
    tables(cat)[index(lang)].split_whitespace().nth(i)
}

/// The English keyword number `i` of a category.
pub fn english_word(cat: Category, i: usize) -> &'static str {
    tables(cat)[2].split_whitespace().nth(i).unwrap_or("")
}

/// The number of keywords of a category (the same in every language).
pub fn count(cat: Category) -> usize {
    tables(cat)[2].split_whitespace().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_aligned() {
        for cat in Category::ALL {
            for l in 0..2 {
                assert_eq!(tables(cat)[l].split_whitespace().count(), count(cat), "{cat:?} {l}");
            }
        }
        assert_eq!(count(Category::Piece), 159);
        assert_eq!(count(Category::Condition), 225);
        assert_eq!(count(Category::Option), 39);
    }

    #[test]
    fn lookups() {
        assert_eq!(to_english(Language::German, Category::Piece, "S").as_deref(), Some("S"));
        assert_eq!(to_english(Language::German, Category::Piece, "l").as_deref(), Some("B"));
        assert_eq!(to_english(Language::German, Category::Piece, "b").as_deref(), Some("P"));
        assert_eq!(to_english(Language::French, Category::Piece, "c").as_deref(), Some("S"));
        assert_eq!(to_english(Language::French, Category::Piece, "t").as_deref(), Some("R"));
        assert_eq!(to_english(Language::German, Category::Piece, "nh").as_deref(), Some("NH"));
        assert_eq!(to_english(Language::German, Category::Command, "Forderung").as_deref(), Some("stipulation"));
        assert_eq!(to_english(Language::German, Category::Command, "Stei").as_deref(), Some("pieces"));
        assert_eq!(to_english(Language::French, Category::Option, "Apparent").as_deref(), Some("SetPlay"));
        assert_eq!(to_english(Language::German, Category::Condition, "Loch").as_deref(), Some("Hole"));
        assert_eq!(language_of_begin("anfangproblem"), Some(Language::German));
        assert_eq!(language_of_begin("DebutProbleme"), Some(Language::French));
    }
}
