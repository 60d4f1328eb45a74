// Words to stem in each language, for the comparison with the Snowball project's own port
// (stemmers.test.ts): inflected forms written for ctxloom (plurals, verb forms, derivations,
// the suffixes each algorithm handles), and the words of the multilingual evaluation set.

export const STEMMER_WORDS: Record<string, string> = {
  german:
    "häuser häusern aufeinanderfolgenden kategorisch kenntnisse kenntnissen lieblich freundlichkeit häufigkeit ordnung erstellung " +
    "abenteuerlich besuchst wohnst gehst kaufte gekauft gekommen wiederholung zeitung zeitungen schwester schwestern gezogen umgezogen " +
    "arbeitslosigkeit möglichkeiten bauer beinahe aufgeräumt naturwissenschaften größe straße fußgänger übersicht wichtigsten prüfung " +
    "thermodynamik förmlicher versicherungsgesellschaft bewerbung bundesregierung förderprogramme energieeffiziente gebäudesanierung",
  dutch:
    "huizen lichamelijk lichamelijke mogelijkheden gelukkig heden ophalen opgehaald verhuisd verhuizen zusje zussen fietsen fietste " +
    "gefietst boeken boekje kinderen kindje duidelijkheid moeilijkheden eenzaamheid vriendelijk vriendelijke prachtig prachtige wandelen " +
    "wandeling wandelingen werkbaar vergadering vergaderingen verjaardag maanden jaren lopen liep gelopen baard kopen koopt kocht meisjes " +
    "jongens appeltaart zwemmen zwom heeft hebben gehad geweest autootje verhuizing gemeenten",
  spanish:
    "casas cantando cantándole cantarla diciéndoselo comiendo comerlo comprar compraron comprábamos hablaba hablaremos niños niñas " +
    "rápidamente felizmente posibilidad posibilidades nacionalidad organización organizaciones lógica biología solución arqueología " +
    "diferencia diferencias importante conocimiento sentimientos caminando mudé mudó mudarse mudamos hermana hermanas trabajaba " +
    "trabajando vivía viviendo ciudades perrito gatos cumpleaños aprendiendo aprendí cocinar cocinaba huyendo oyendo leyendo " +
    "construyendo creyeron sigue siguen averigüe paguen atractivamente abusivamente conservadora relajante",
  french:
    "continuation continuellement généralement nationalité nationaux chevaux heureusement dangereuse dangereuses majestueusement " +
    "activement précisément mangeaient mangions finissons finissaient choisissant grandissement fraîchement familles chanteuse " +
    "chanteurs musiciennes créativité possibilités déménagé déménager déménagement sœurs inquiétudes aimerais aimait aimons aimée " +
    "allions allaient parlâmes parlassent légumes derrière premier première gentillesse ambiguë ensemble conditions questions " +
    "illusions attention reçue imparfait dissertation négociations concessions sauvegarder régulièrement",
  italian:
    "abbandonata abbandonate abbandonati abbandonava abbandonerà abbandonerò abbassamento abbassando abbassandola divertirsi " +
    "mangiarlo facendolo nazionalità attività felicemente velocemente organizzazione organizzatore biologia soluzione differenze " +
    "cambiamento cambiamenti sorelle trasferita trasferirsi lavorando lavoravamo bambini cani gatti compleanno imparando cucinato " +
    "crocchi crocchio amiche amici lunghi lunghissimo qualità quando guaio aiuola",
  portuguese:
    "casas cantando cantava compraram comprávamos falaremos crianças rapidamente felizmente possibilidades nacionalidade organização " +
    "organizações lógica biologia solução soluções diferenças importantes economicamente conhecimento sentimentos caminhada mudei " +
    "mudou mudamos irmã irmãs trabalhava vivendo cidades cachorro aniversário aprendendo cozinhando argumentos bandeiras cansativo " +
    "cansativa adoradores limpezas quentes",
};
