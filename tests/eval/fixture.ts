// Content-quality fixture: 22 catalogue entities of an outdoor / sports e-shop
// (12 products, 5 categories, 5 blog posts), each written natively in Czech, English and German.
// Items with a customer question answered in the description: P-01, P-03, P-05, P-08, C-01, C-04, B-01, B-04.
// Items with a YouTube video link: P-02, P-09, B-03.
import type { EvalItem } from './fixture-types';

export const FIXTURE: EvalItem[] = [
  // ---------------------------------------------------------------- products
  {
    id: 'P-01',
    type: 'product',
    images: [
      'https://cdn.outdoor-shop.example/img/P-01-1.jpg',
      'https://cdn.outdoor-shop.example/img/P-01-2.jpg',
      'https://cdn.outdoor-shop.example/img/P-01-3.jpg',
    ],
    ean: '8594012345010',
    brand: 'Veltra',
    texts: {
      cs: {
        name: 'Pánské trailové boty Veltra Ridge 2 WP',
        short_description:
          'Trailové běžecké boty s voděodolnou membránou a podrážkou se vzorkem hlubokým 5 mm pro blátivé i kamenité stezky.',
        description:
          '<p>Boty Veltra Ridge 2 WP jsou určené pro běh v terénu za každého počasí. Membrána udrží nohy v suchu i při běhu přes kaluže a mokrou trávu a zpevněná špička chrání prsty před kameny.</p>' +
          '<p>Drží podrážka i na mokrých kamenech? Ano, měkčí pryžová směs se vzorkem hlubokým 5 mm drží spolehlivě i na mokré skále. Na led ale doporučujeme nasadit nesmeky.</p>',
        parameter:
          'Hmotnost: 310 g (jedna bota, velikost 42)\nDrop: 6 mm\nVýška podrážky (pata/špička): 28/22 mm\nHloubka vzorku: 5 mm\nVelikosti: 40–47',
        url: 'https://outdoor-shop.example/cs/panske-trailove-boty-veltra-ridge-2-wp',
      },
      en: {
        name: "Veltra Ridge 2 WP Men's Trail Running Shoes",
        short_description:
          'Waterproof trail running shoes with a 5 mm lug outsole for muddy and rocky paths.',
        description:
          '<p>The Veltra Ridge 2 WP is built for off-road running in any weather. Its membrane keeps your feet dry through puddles and wet grass, and a reinforced toe cap protects against rocks.</p>' +
          '<p>Does the outsole grip on wet rock? Yes, the softer rubber compound with 5 mm lugs holds reliably on wet stone. On ice, however, we recommend adding traction spikes.</p>',
        parameter:
          'Weight: 310 g (single shoe, size 42)\nDrop: 6 mm\nStack height (heel/toe): 28/22 mm\nLug depth: 5 mm\nSizes: 40–47',
        url: 'https://outdoor-shop.example/en/veltra-ridge-2-wp-mens-trail-running-shoes',
      },
      de: {
        name: 'Veltra Ridge 2 WP Trailrunningschuhe für Herren',
        short_description:
          'Wasserdichte Trailrunningschuhe mit 5 mm tiefem Sohlenprofil für schlammige und steinige Pfade.',
        description:
          '<p>Der Veltra Ridge 2 WP ist für Läufe im Gelände bei jedem Wetter gemacht. Die Membran hält die Füße auch in Pfützen und nassem Gras trocken, und die verstärkte Zehenkappe schützt vor Steinen.</p>' +
          '<p>Greift die Sohle auch auf nassem Fels? Ja, die weichere Gummimischung mit 5 mm tiefen Stollen hält auch auf nassem Gestein zuverlässig. Auf Eis empfehlen wir jedoch zusätzliche Grödel.</p>',
        parameter:
          'Gewicht: 310 g (ein Schuh, Größe 42)\nSprengung: 6 mm\nSohlenhöhe (Ferse/Vorfuß): 28/22 mm\nProfiltiefe: 5 mm\nGrößen: 40–47',
        url: 'https://outdoor-shop.example/de/veltra-ridge-2-wp-trailrunningschuhe-herren',
      },
    },
  },
  {
    id: 'P-02',
    type: 'product',
    images: [
      'https://cdn.outdoor-shop.example/img/P-02-1.jpg',
      'https://cdn.outdoor-shop.example/img/P-02-2.jpg',
      'https://cdn.outdoor-shop.example/img/P-02-3.jpg',
      'https://cdn.outdoor-shop.example/img/P-02-4.jpg',
    ],
    ean: '8594012345027',
    brand: 'Nordkamm',
    texts: {
      cs: {
        name: 'Pánská nepromokavá bunda Nordkamm Stormlight 3L',
        short_description:
          'Třívrstvá nepromokavá bunda s vodním sloupcem 20 000 mm, nastavitelnou kapucí a větracími zipy v podpaží.',
        description:
          '<p>Bunda Stormlight 3L je ušitá ze třívrstvého laminátu, který odolá dlouhému dešti i větru na hřebeni. Všechny švy jsou podlepené a zipy mají voděodpudivou úpravu.</p>' +
          '<ul><li>kapuce nastavitelná ve třech bodech, pojme i helmu</li><li>větrací zipy v podpaží</li><li>dvě kapsy přístupné i se zapnutým bederním pásem batohu</li></ul>' +
          '<p>Jak bunda obstála v prudkém dešti, ukazuje naše <a href="https://www.youtube.com/watch?v=k3VbT9xQmL2">video z testu</a>.</p>',
        parameter:
          'Hmotnost: 390 g (velikost M)\nVodní sloupec: 20 000 mm\nProdyšnost: 20 000 g/m²/24 h\nMateriál: 100 % polyamid, 3vrstvý laminát\nVelikosti: S–XXL',
        url: 'https://outdoor-shop.example/cs/panska-nepromokava-bunda-nordkamm-stormlight-3l',
      },
      en: {
        name: "Nordkamm Stormlight 3L Men's Waterproof Jacket",
        short_description:
          'A three-layer waterproof jacket with a 20 000 mm hydrostatic head, an adjustable hood and pit zips.',
        description:
          '<p>The Stormlight 3L is made from a three-layer laminate that stands up to long spells of rain and wind on exposed ridges. All seams are taped and the zips are water-repellent.</p>' +
          '<ul><li>hood adjustable at three points, fits over a helmet</li><li>underarm ventilation zips</li><li>two pockets you can reach with a hip belt fastened</li></ul>' +
          '<p>See how the jacket handled a downpour in our <a href="https://www.youtube.com/watch?v=k3VbT9xQmL2">test video</a>.</p>',
        parameter:
          'Weight: 390 g (size M)\nHydrostatic head: 20 000 mm\nBreathability: 20 000 g/m²/24 h\nMaterial: 100% polyamide, 3-layer laminate\nSizes: S–XXL',
        url: 'https://outdoor-shop.example/en/nordkamm-stormlight-3l-mens-waterproof-jacket',
      },
      de: {
        name: 'Nordkamm Stormlight 3L Regenjacke für Herren',
        short_description:
          'Dreilagige Regenjacke mit 20 000 mm Wassersäule, verstellbarer Kapuze und Belüftungsreißverschlüssen unter den Armen.',
        description:
          '<p>Die Stormlight 3L besteht aus einem dreilagigen Laminat, das auch langem Regen und Wind am Grat standhält. Alle Nähte sind verklebt und die Reißverschlüsse wasserabweisend.</p>' +
          '<ul><li>an drei Punkten verstellbare, helmtaugliche Kapuze</li><li>Belüftungsreißverschlüsse unter den Armen</li><li>zwei Taschen, die auch bei geschlossenem Hüftgurt erreichbar sind</li></ul>' +
          '<p>Wie sich die Jacke im Starkregen geschlagen hat, zeigt unser <a href="https://www.youtube.com/watch?v=k3VbT9xQmL2">Testvideo</a>.</p>',
        parameter:
          'Gewicht: 390 g (Größe M)\nWassersäule: 20 000 mm\nAtmungsaktivität: 20 000 g/m²/24 h\nMaterial: 100 % Polyamid, 3-Lagen-Laminat\nGrößen: S–XXL',
        url: 'https://outdoor-shop.example/de/nordkamm-stormlight-3l-regenjacke-herren',
      },
    },
  },
  {
    id: 'P-03',
    type: 'product',
    images: [
      'https://cdn.outdoor-shop.example/img/P-03-1.jpg',
      'https://cdn.outdoor-shop.example/img/P-03-2.jpg',
      'https://cdn.outdoor-shop.example/img/P-03-3.jpg',
    ],
    ean: '8594012345034',
    brand: 'Trailhorn',
    texts: {
      cs: {
        name: 'Turistický batoh Trailhorn Tarn 28',
        short_description:
          'Batoh o objemu 28 l na jednodenní túry s větraným zádovým systémem a pláštěnkou v balení.',
        description:
          '<p>Trailhorn Tarn 28 má nastavitelný zádový systém se síťovinou, díky které se vám méně potí záda. Bederní pás s kapsami přenáší většinu zátěže na boky a do každé boční kapsy se vejde láhev o objemu 1 l.</p>' +
          '<p>Vejde se do batohu hydrovak? Ano, uvnitř je kapsa pro hydrovak do objemu 3 l a na ramenních popruzích jsou průchody pro hadičku.</p>',
        parameter:
          'Objem: 28 l\nHmotnost: 1 050 g\nDélka zad: 46–52 cm (nastavitelná)\nMateriál: recyklovaný nylon 210D\nPláštěnka: součástí balení',
        url: 'https://outdoor-shop.example/cs/turisticky-batoh-trailhorn-tarn-28',
      },
      en: {
        name: 'Trailhorn Tarn 28 Hiking Backpack',
        short_description: 'A 28 l day-hiking pack with a ventilated back system and an included rain cover.',
        description:
          '<p>The Trailhorn Tarn 28 has an adjustable back system with a mesh panel that lets air circulate, so your back sweats less. The hip belt with pockets transfers most of the load to your hips, and each side pocket holds a 1 l bottle.</p>' +
          '<p>Does it take a hydration bladder? Yes, there is an internal sleeve for bladders up to 3 l and hose ports on the shoulder straps.</p>',
        parameter:
          'Volume: 28 l\nWeight: 1 050 g\nBack length: 46–52 cm (adjustable)\nMaterial: recycled 210D nylon\nRain cover: included',
        url: 'https://outdoor-shop.example/en/trailhorn-tarn-28-hiking-backpack',
      },
      de: {
        name: 'Trailhorn Tarn 28 Wanderrucksack',
        short_description:
          'Tagesrucksack mit 28 l Volumen, belüftetem Rückensystem und mitgelieferter Regenhülle.',
        description:
          '<p>Der Trailhorn Tarn 28 hat ein verstellbares Rückensystem mit Netzeinsatz, sodass Sie am Rücken weniger schwitzen. Der Hüftgurt mit Taschen überträgt den Großteil der Last auf die Hüften, und in jede Seitentasche passt eine 1-l-Flasche.</p>' +
          '<p>Passt eine Trinkblase hinein? Ja, innen gibt es ein Fach für Trinkblasen bis 3 l, und an den Schulterträgern sind Schlauchführungen angebracht.</p>',
        parameter:
          'Volumen: 28 l\nGewicht: 1 050 g\nRückenlänge: 46–52 cm (verstellbar)\nMaterial: recyceltes 210D-Nylon\nRegenhülle: im Lieferumfang',
        url: 'https://outdoor-shop.example/de/trailhorn-tarn-28-wanderrucksack',
      },
    },
  },
  {
    id: 'P-04',
    type: 'product',
    images: [
      'https://cdn.outdoor-shop.example/img/P-04-1.jpg',
      'https://cdn.outdoor-shop.example/img/P-04-2.jpg',
    ],
    ean: '8594012345041',
    brand: 'Skarn',
    texts: {
      cs: {
        name: 'Trekingové hole Skarn Vario Carbon',
        short_description:
          'Třídílné karbonové hole s pákovými zámky a korkovou rukojetí, nastavitelné v rozsahu 105–135 cm.',
        description:
          '<p>Hole Skarn Vario Carbon mají horní díly z karbonu a spodní díl z hliníku, který lépe snáší nárazy o kameny. Pákové zámky se dají utáhnout i v rukavicích a díky prodloužené pěnové části pod korkovou rukojetí můžete ve strmém svahu rychle změnit úchop.</p>' +
          '<p>V balení najdete letní i zimní talířky. Pár váží 440 g.</p>',
        parameter:
          'Délka: 105–135 cm\nHmotnost: 440 g (pár)\nMateriál: karbon (horní díly), hliník (spodní díl)\nPočet dílů: 3\nZámek: pákový\nRukojeť: korek, prodloužení z EVA pěny',
        url: 'https://outdoor-shop.example/cs/trekingove-hole-skarn-vario-carbon',
      },
      en: {
        name: 'Skarn Vario Carbon Trekking Poles',
        short_description:
          'Three-section carbon poles with lever locks and cork grips, adjustable from 105 to 135 cm.',
        description:
          '<p>The Skarn Vario Carbon poles combine carbon upper sections with an aluminium lower section that copes better with knocks against rocks. The lever locks can be tightened even with gloves on, and the extended foam section below the cork grip lets you change your hold quickly on steep slopes.</p>' +
          '<p>Both summer and winter baskets are included. The pair weighs 440 g.</p>',
        parameter:
          'Length: 105–135 cm\nWeight: 440 g (pair)\nMaterial: carbon (upper sections), aluminium (lower section)\nSections: 3\nLock: lever\nGrip: cork, EVA foam extension',
        url: 'https://outdoor-shop.example/en/skarn-vario-carbon-trekking-poles',
      },
      de: {
        name: 'Skarn Vario Carbon Trekkingstöcke',
        short_description:
          'Dreiteilige Carbonstöcke mit Klemmverschlüssen und Korkgriffen, verstellbar von 105 bis 135 cm.',
        description:
          '<p>Die Skarn Vario Carbon kombinieren Oberteile aus Carbon mit einem Unterteil aus Aluminium, das Schläge gegen Steine besser wegsteckt. Die Klemmverschlüsse lassen sich auch mit Handschuhen festziehen, und dank der verlängerten Schaumstoffzone unter dem Korkgriff können Sie in steilen Hängen schnell umgreifen.</p>' +
          '<p>Sommer- und Winterteller sind im Lieferumfang enthalten. Das Paar wiegt 440 g.</p>',
        parameter:
          'Länge: 105–135 cm\nGewicht: 440 g (Paar)\nMaterial: Carbon (Oberteile), Aluminium (Unterteil)\nSegmente: 3\nVerschluss: Klemmverschluss\nGriff: Kork, Verlängerung aus EVA-Schaum',
        url: 'https://outdoor-shop.example/de/skarn-vario-carbon-trekkingstoecke',
      },
    },
  },
  {
    id: 'P-05',
    type: 'product',
    images: [
      'https://cdn.outdoor-shop.example/img/P-05-1.jpg',
      'https://cdn.outdoor-shop.example/img/P-05-2.jpg',
      'https://cdn.outdoor-shop.example/img/P-05-3.jpg',
    ],
    ean: '8594012345058',
    brand: 'Nordkamm',
    texts: {
      cs: {
        name: 'Péřový spací pytel Nordkamm Polar 600',
        short_description:
          'Mumiový péřový spacák s komfortní teplotou -3 °C pro horské túry na jaře a na podzim.',
        description:
          '<p>Spacák Nordkamm Polar 600 je plněný 600 g kachního prachového peří v poměru 90/10 s plnivostí 700 cuin. Komory s přepážkami brání přesouvání peří a tepelný límec kolem krku drží teplo uvnitř.</p>' +
          '<p>Dá se spacák prát v pračce? Ano, na šetrném programu při 30 °C s prostředkem určeným na peří. Poté ho usušte v sušičce s několika tenisovými míčky.</p>',
        parameter:
          'Náplň: 600 g kachního peří 90/10, 700 cuin\nKomfortní teplota: -3 °C\nLimitní teplota: -9 °C\nHmotnost: 1 150 g\nDélka: 220 cm (pro výšku do 195 cm)\nSbalený rozměr: 20 × 35 cm',
        url: 'https://outdoor-shop.example/cs/perovy-spaci-pytel-nordkamm-polar-600',
      },
      en: {
        name: 'Nordkamm Polar 600 Down Sleeping Bag',
        short_description:
          'A mummy-shaped down sleeping bag with a comfort rating of -3 °C for spring and autumn mountain trips.',
        description:
          '<p>The Nordkamm Polar 600 is filled with 600 g of 90/10 duck down with a fill power of 700 cuin. Baffled chambers stop the down from shifting, and a draught collar around the neck keeps the warmth inside.</p>' +
          '<p>Can the sleeping bag be machine washed? Yes, on a gentle 30 °C cycle with a detergent made for down. Then tumble dry it with a few tennis balls.</p>',
        parameter:
          'Fill: 600 g duck down 90/10, 700 cuin\nComfort temperature: -3 °C\nLimit temperature: -9 °C\nWeight: 1 150 g\nLength: 220 cm (for users up to 195 cm)\nPacked size: 20 × 35 cm',
        url: 'https://outdoor-shop.example/en/nordkamm-polar-600-down-sleeping-bag',
      },
      de: {
        name: 'Nordkamm Polar 600 Daunenschlafsack',
        short_description:
          'Mumienförmiger Daunenschlafsack mit einer Komforttemperatur von -3 °C für Bergtouren im Frühjahr und Herbst.',
        description:
          '<p>Der Nordkamm Polar 600 ist mit 600 g Entendaunen im Verhältnis 90/10 und einer Bauschkraft von 700 cuin gefüllt. Kammern mit Stegen verhindern, dass die Daunen verrutschen, und ein Wärmekragen hält die Wärme im Schlafsack.</p>' +
          '<p>Kann man den Schlafsack in der Maschine waschen? Ja, im Schonwaschgang bei 30 °C mit einem Daunenwaschmittel. Anschließend trocknen Sie ihn im Trockner mit ein paar Tennisbällen.</p>',
        parameter:
          'Füllung: 600 g Entendaunen 90/10, 700 cuin\nKomforttemperatur: -3 °C\nGrenztemperatur: -9 °C\nGewicht: 1 150 g\nLänge: 220 cm (für Körpergrößen bis 195 cm)\nPackmaß: 20 × 35 cm',
        url: 'https://outdoor-shop.example/de/nordkamm-polar-600-daunenschlafsack',
      },
    },
  },
  {
    id: 'P-06',
    type: 'product',
    images: [
      'https://cdn.outdoor-shop.example/img/P-06-1.jpg',
      'https://cdn.outdoor-shop.example/img/P-06-2.jpg',
    ],
    ean: '8594012345065',
    brand: 'Lumtra',
    texts: {
      cs: {
        name: 'Čelovka Lumtra Beam 450 R',
        short_description:
          'Nabíjecí čelovka se světelným tokem 450 lm, červeným světlem a nabíjením přes USB-C.',
        description:
          '<p>Lumtra Beam 450 R kombinuje široký rozptýlený paprsek pro chůzi po stezce s úzkým paprskem s dosvitem 110 m. Červené světlo neoslňuje ostatní ve stanu a šetří vaše noční vidění.</p>' +
          '<ul><li>4 h na maximální výkon, 60 h v nejúspornějším režimu</li><li>zámek tlačítka proti nechtěnému zapnutí v batohu</li><li>odolnost proti stříkající vodě IPX4</li></ul>' +
          '<p>Plné nabití přes USB-C trvá zhruba 3 hodiny.</p>',
        parameter:
          'Světelný tok: 450 lm\nDosvit: 110 m\nVýdrž: 4 h na maximum, 60 h na minimum\nBaterie: Li-ion 2 000 mAh, nabíjení přes USB-C\nKrytí: IPX4\nHmotnost: 86 g (včetně baterie)',
        url: 'https://outdoor-shop.example/cs/celovka-lumtra-beam-450-r',
      },
      en: {
        name: 'Lumtra Beam 450 R Headlamp',
        short_description: 'A rechargeable 450 lm headlamp with a red light mode and USB-C charging.',
        description:
          '<p>The Lumtra Beam 450 R combines a wide flood beam for walking on the trail with a focused spot beam that reaches 110 m. The red light does not dazzle others in the tent and preserves your night vision.</p>' +
          '<ul><li>4 h on maximum output, 60 h on the lowest mode</li><li>button lock to prevent it switching on in your pack</li><li>IPX4 splash resistance</li></ul>' +
          '<p>A full charge via USB-C takes about 3 hours.</p>',
        parameter:
          'Light output: 450 lm\nBeam distance: 110 m\nBurn time: 4 h on maximum, 60 h on minimum\nBattery: 2 000 mAh Li-ion, USB-C charging\nProtection: IPX4\nWeight: 86 g (including battery)',
        url: 'https://outdoor-shop.example/en/lumtra-beam-450-r-headlamp',
      },
      de: {
        name: 'Lumtra Beam 450 R Stirnlampe',
        short_description: 'Aufladbare Stirnlampe mit 450 lm, Rotlicht und Ladung über USB-C.',
        description:
          '<p>Die Lumtra Beam 450 R kombiniert einen breiten Flutstrahl für den Weg mit einem fokussierten Spotstrahl, der 110 m weit reicht. Das Rotlicht blendet niemanden im Zelt und schont Ihre Nachtsicht.</p>' +
          '<ul><li>4 h bei maximaler Leistung, 60 h im sparsamsten Modus</li><li>Tastensperre gegen versehentliches Einschalten im Rucksack</li><li>Spritzwasserschutz nach IPX4</li></ul>' +
          '<p>Eine volle Ladung über USB-C dauert etwa 3 Stunden.</p>',
        parameter:
          'Lichtstrom: 450 lm\nLeuchtweite: 110 m\nLeuchtdauer: 4 h bei Maximum, 60 h bei Minimum\nAkku: 2 000 mAh Li-Ion, Ladung über USB-C\nSchutzart: IPX4\nGewicht: 86 g (inklusive Akku)',
        url: 'https://outdoor-shop.example/de/lumtra-beam-450-r-stirnlampe',
      },
    },
  },
  {
    id: 'P-07',
    type: 'product',
    images: ['https://cdn.outdoor-shop.example/img/P-07-1.jpg'],
    ean: '8594012345072',
    brand: 'Kovaro',
    texts: {
      cs: {
        name: 'Nerezová termoláhev Kovaro Steady 750',
        short_description: 'Dvoustěnná nerezová láhev, která udrží nápoj teplý 12 hodin a studený 24 hodin.',
        description:
          '<p>Termoláhev Kovaro Steady 750 má dvojitou stěnu s vakuovou izolací a široké hrdlo, kterým projdou i kostky ledu. Víčko s těsněním nic nepropustí, ani když láhev leží v batohu dnem vzhůru.</p>' +
          '<p>Láhev je vyrobená z nerezové oceli 18/8 a neobsahuje BPA. Doporučujeme ji mýt ručně.</p>',
        parameter:
          'Objem: 750 ml\nUdrží teplé: 12 h\nUdrží studené: 24 h\nMateriál: nerezová ocel 18/8\nHmotnost: 390 g',
        url: 'https://outdoor-shop.example/cs/nerezova-termolahev-kovaro-steady-750',
      },
      en: {
        name: 'Kovaro Steady 750 Insulated Bottle',
        short_description:
          'A double-walled stainless steel bottle that keeps drinks hot for 12 hours and cold for 24 hours.',
        description:
          '<p>The Kovaro Steady 750 has vacuum-insulated double walls and a wide mouth that takes ice cubes. The sealed lid does not leak, even when the bottle lies upside down in your pack.</p>' +
          '<p>The bottle is made of 18/8 stainless steel and is BPA-free. We recommend washing it by hand.</p>',
        parameter:
          'Volume: 750 ml\nKeeps hot: 12 h\nKeeps cold: 24 h\nMaterial: 18/8 stainless steel\nWeight: 390 g',
        url: 'https://outdoor-shop.example/en/kovaro-steady-750-insulated-bottle',
      },
      de: {
        name: 'Kovaro Steady 750 Isolierflasche',
        short_description:
          'Doppelwandige Edelstahlflasche, die Getränke 12 Stunden heiß und 24 Stunden kalt hält.',
        description:
          '<p>Die Kovaro Steady 750 hat eine vakuumisolierte Doppelwand und eine weite Öffnung, durch die auch Eiswürfel passen. Der Deckel mit Dichtung hält dicht, selbst wenn die Flasche kopfüber im Rucksack liegt.</p>' +
          '<p>Die Flasche besteht aus Edelstahl 18/8 und ist BPA-frei. Wir empfehlen, sie von Hand zu spülen.</p>',
        parameter:
          'Volumen: 750 ml\nWarmhaltezeit: 12 h\nKühlhaltezeit: 24 h\nMaterial: Edelstahl 18/8\nGewicht: 390 g',
        url: 'https://outdoor-shop.example/de/kovaro-steady-750-isolierflasche',
      },
    },
  },
  {
    id: 'P-08',
    type: 'product',
    images: [
      'https://cdn.outdoor-shop.example/img/P-08-1.jpg',
      'https://cdn.outdoor-shop.example/img/P-08-2.jpg',
      'https://cdn.outdoor-shop.example/img/P-08-3.jpg',
    ],
    ean: '8594012345089',
    brand: 'Lanura',
    texts: {
      cs: {
        name: 'Pánské merino tričko Lanura Core 150',
        short_description:
          'Tričko z jemné merino vlny s gramáží 150 g/m² na túry, na cesty i jako první vrstva.',
        description:
          '<p>Tričko Lanura Core 150 je ušité ze 100% merino vlny s jemností vlákna 18 µm, která ani na holé kůži nekouše. Ploché švy nedřou pod popruhy batohu.</p>' +
          '<p>Nebude tričko po celém dni zapáchat? Merino přirozeně omezuje vznik pachů, takže ho můžete nosit několik dní bez praní. Lze ho prát v pračce? Ano, na programu pro vlnu při 30 °C.</p>',
        parameter:
          'Materiál: 100 % merino vlna\nGramáž: 150 g/m²\nJemnost vlákna: 18 µm\nHmotnost: 140 g (velikost M)\nVelikosti: S–XXL',
        url: 'https://outdoor-shop.example/cs/panske-merino-tricko-lanura-core-150',
      },
      en: {
        name: "Lanura Core 150 Men's Merino T-Shirt",
        short_description:
          'A 150 g/m² fine merino wool T-shirt for hiking, travel and wearing as a base layer.',
        description:
          '<p>The Lanura Core 150 is made from 100% merino wool with a fibre diameter of 18 µm, so it does not itch even against bare skin. Flat seams do not chafe under backpack straps.</p>' +
          '<p>Will the shirt smell after a long day? Merino naturally limits odour, so you can wear it for several days between washes. Can it go in the washing machine? Yes, on a wool cycle at 30 °C.</p>',
        parameter:
          'Material: 100% merino wool\nFabric weight: 150 g/m²\nFibre diameter: 18 µm\nWeight: 140 g (size M)\nSizes: S–XXL',
        url: 'https://outdoor-shop.example/en/lanura-core-150-mens-merino-t-shirt',
      },
      de: {
        name: 'Lanura Core 150 Merino-T-Shirt für Herren',
        short_description:
          'T-Shirt aus feiner Merinowolle mit 150 g/m² für Wanderungen, Reisen und als Baselayer.',
        description:
          '<p>Das Lanura Core 150 besteht aus 100 % Merinowolle mit einer Faserfeinheit von 18 µm und kratzt auch auf nackter Haut nicht. Flache Nähte scheuern nicht unter den Rucksackträgern.</p>' +
          '<p>Riecht das Shirt nach einem langen Tag? Merinowolle hemmt Gerüche auf natürliche Weise, sodass Sie es mehrere Tage ohne Waschen tragen können. Darf es in die Waschmaschine? Ja, im Wollprogramm bei 30 °C.</p>',
        parameter:
          'Material: 100 % Merinowolle\nGrammatur: 150 g/m²\nFaserfeinheit: 18 µm\nGewicht: 140 g (Größe M)\nGrößen: S–XXL',
        url: 'https://outdoor-shop.example/de/lanura-core-150-merino-t-shirt-herren',
      },
    },
  },
  {
    id: 'P-09',
    type: 'product',
    images: [
      'https://cdn.outdoor-shop.example/img/P-09-1.jpg',
      'https://cdn.outdoor-shop.example/img/P-09-2.jpg',
      'https://cdn.outdoor-shop.example/img/P-09-3.jpg',
      'https://cdn.outdoor-shop.example/img/P-09-4.jpg',
      'https://cdn.outdoor-shop.example/img/P-09-5.jpg',
    ],
    ean: '8594012345096',
    brand: 'Trailhorn',
    texts: {
      cs: {
        name: 'Dvoumístný stan Trailhorn Alcove 2',
        short_description: 'Stan pro dva s hmotností 1 920 g, dvěma vchody a dvěma předsíněmi.',
        description:
          '<p>Alcove 2 se staví od tropika: vnitřní stan je k němu zavěšený, takže zůstane suchý, i když stavíte v dešti. Dva vchody a dvě předsíně poskytují dost místa na batohy a boty obou spáčů.</p>' +
          '<p>Postup stavění krok za krokem najdete v našem <a href="https://www.youtube.com/watch?v=Zr8_pW4nHc1">videonávodu</a>.</p>',
        parameter:
          'Počet osob: 2\nHmotnost: 1 920 g\nSbalený rozměr: 45 × 15 cm\nVodní sloupec tropika: 3 000 mm\nVodní sloupec podlahy: 5 000 mm\nPočet předsíní: 2',
        url: 'https://outdoor-shop.example/cs/dvoumistny-stan-trailhorn-alcove-2',
      },
      en: {
        name: 'Trailhorn Alcove 2 Two-Person Tent',
        short_description: 'A 1 920 g two-person tent with two entrances and two vestibules.',
        description:
          '<p>The Alcove 2 pitches fly-first: the inner tent is clipped to the flysheet, so it stays dry even if you set up in the rain. Two doors and two vestibules leave room for the packs and boots of both sleepers.</p>' +
          '<p>For step-by-step instructions, watch our <a href="https://www.youtube.com/watch?v=Zr8_pW4nHc1">pitching video</a>.</p>',
        parameter:
          'Capacity: 2 persons\nWeight: 1 920 g\nPacked size: 45 × 15 cm\nFlysheet hydrostatic head: 3 000 mm\nFloor hydrostatic head: 5 000 mm\nVestibules: 2',
        url: 'https://outdoor-shop.example/en/trailhorn-alcove-2-two-person-tent',
      },
      de: {
        name: 'Trailhorn Alcove 2 Zweipersonenzelt',
        short_description: 'Zweipersonenzelt mit 1 920 g Gewicht, zwei Eingängen und zwei Apsiden.',
        description:
          '<p>Das Alcove 2 wird mit dem Außenzelt zuerst aufgebaut: Das Innenzelt ist darin eingehängt und bleibt so auch beim Aufbau im Regen trocken. Zwei Eingänge und zwei Apsiden bieten genug Platz für die Rucksäcke und Schuhe beider Schläfer.</p>' +
          '<p>Eine Schritt-für-Schritt-Anleitung zeigt unser <a href="https://www.youtube.com/watch?v=Zr8_pW4nHc1">Aufbauvideo</a>.</p>',
        parameter:
          'Personen: 2\nGewicht: 1 920 g\nPackmaß: 45 × 15 cm\nWassersäule Außenzelt: 3 000 mm\nWassersäule Boden: 5 000 mm\nApsiden: 2',
        url: 'https://outdoor-shop.example/de/trailhorn-alcove-2-zweipersonenzelt',
      },
    },
  },
  {
    id: 'P-10',
    type: 'product',
    images: [
      'https://cdn.outdoor-shop.example/img/P-10-1.jpg',
      'https://cdn.outdoor-shop.example/img/P-10-2.jpg',
    ],
    ean: '8594012345102',
    brand: 'Kovaro',
    texts: {
      cs: {
        name: 'Plynový vařič Kovaro Flare Mini',
        short_description: 'Kompaktní vařič na kartuše se závitem s výkonem 2 800 W a piezo zapalováním.',
        description:
          '<p>Kovaro Flare Mini váží jen 85 g a složený se vejde do hrnce i s kartuší o obsahu 100 g. Litr vody přivede k varu zhruba za 3 minuty a 30 sekund. Regulační ventil umožňuje plamen plynule stáhnout, takže na něm můžete i pomalu vařit, nejen ohřívat vodu.</p>' +
          '<p>Vařič se šroubuje na kartuše se závitem podle normy EN 417. Ve stanu jej z bezpečnostních důvodů nepoužívejte.</p>',
        parameter:
          'Výkon: 2 800 W\nHmotnost: 85 g\nDoba varu: 3 min 30 s (1 l vody)\nPřipojení: kartuše se závitem EN 417\nPiezo zapalování: ano',
        url: 'https://outdoor-shop.example/cs/plynovy-varic-kovaro-flare-mini',
      },
      en: {
        name: 'Kovaro Flare Mini Gas Stove',
        short_description: 'A compact 2 800 W stove for threaded gas canisters with piezo ignition.',
        description:
          '<p>The Kovaro Flare Mini weighs only 85 g and, folded, fits inside a pot together with a 100 g canister. It brings a litre of water to the boil in about 3 minutes 30 seconds. The control valve lets you turn the flame right down, so you can simmer as well as boil water.</p>' +
          '<p>The stove screws onto threaded canisters to the EN 417 standard. For safety reasons, do not use it inside a tent.</p>',
        parameter:
          'Output: 2 800 W\nWeight: 85 g\nBoil time: 3 min 30 s (1 l of water)\nConnection: EN 417 threaded canister\nPiezo ignition: yes',
        url: 'https://outdoor-shop.example/en/kovaro-flare-mini-gas-stove',
      },
      de: {
        name: 'Kovaro Flare Mini Gaskocher',
        short_description: 'Kompakter Kocher für Schraubkartuschen mit 2 800 W Leistung und Piezozündung.',
        description:
          '<p>Der Kovaro Flare Mini wiegt nur 85 g und passt zusammengeklappt samt 100-g-Kartusche in einen Topf. Einen Liter Wasser bringt er in etwa 3 Minuten und 30 Sekunden zum Kochen. Mit dem Regelventil lässt sich die Flamme fein herunterdrehen, sodass Sie auch köcheln und nicht nur Wasser erhitzen können.</p>' +
          '<p>Der Kocher wird auf Schraubkartuschen nach EN 417 geschraubt. Verwenden Sie ihn aus Sicherheitsgründen nicht im Zelt.</p>',
        parameter:
          'Leistung: 2 800 W\nGewicht: 85 g\nKochzeit: 3 min 30 s (1 l Wasser)\nAnschluss: Schraubkartusche nach EN 417\nPiezozündung: ja',
        url: 'https://outdoor-shop.example/de/kovaro-flare-mini-gaskocher',
      },
    },
  },
  {
    id: 'P-11',
    type: 'product',
    images: [],
    ean: '8594012345119',
    brand: 'Lanura',
    texts: {
      cs: {
        name: 'Turistické ponožky Lanura Trek Mid',
        short_description: 'Ponožky z merino vlny s froté chodidlem pro celodenní chůzi v pohorkách.',
        description:
          '<p>Ponožky Lanura Trek Mid sahají nad kotník a mají po celém chodidle froté polstrování, které tlumí nárazy. Zesílená pata a špička vydrží i dlouhé přechody.</p>' +
          '<p>Směs merina a polyamidu odvádí pot a rychle schne. Pružný pásek přes nárt drží ponožku na místě, takže v botě neklouže.</p>',
        parameter:
          'Materiál: 65 % merino vlna, 32 % polyamid, 3 % elastan\nVýška: nad kotník\nPolstrování: froté po celém chodidle\nVelikosti: 35–38, 39–42, 43–46',
        url: 'https://outdoor-shop.example/cs/turisticke-ponozky-lanura-trek-mid',
      },
      en: {
        name: 'Lanura Trek Mid Hiking Socks',
        short_description:
          'Merino wool socks with a cushioned terry sole for all-day walking in hiking boots.',
        description:
          '<p>The Lanura Trek Mid socks reach above the ankle and have terry cushioning under the whole foot to absorb impact. A reinforced heel and toe hold up on long treks.</p>' +
          '<p>The merino and polyamide blend wicks sweat and dries quickly. An elastic band around the instep keeps the sock in place, so it does not slip inside the boot.</p>',
        parameter:
          'Material: 65% merino wool, 32% polyamide, 3% elastane\nHeight: crew (above the ankle)\nCushioning: full terry sole\nSizes: 35–38, 39–42, 43–46',
        url: 'https://outdoor-shop.example/en/lanura-trek-mid-hiking-socks',
      },
      de: {
        name: 'Lanura Trek Mid Wandersocken',
        short_description:
          'Socken aus Merinowolle mit gepolsterter Frotteesohle für ganztägiges Gehen in Wanderschuhen.',
        description:
          '<p>Die Lanura Trek Mid reichen über den Knöchel und haben unter dem ganzen Fuß eine Frotteepolsterung, die Stöße dämpft. Verstärkte Ferse und Spitze halten auch lange Touren aus.</p>' +
          '<p>Die Mischung aus Merinowolle und Polyamid leitet Schweiß ab und trocknet schnell. Ein elastischer Bund am Rist hält die Socke an ihrem Platz, sodass sie im Schuh nicht verrutscht.</p>',
        parameter:
          'Material: 65 % Merinowolle, 32 % Polyamid, 3 % Elasthan\nHöhe: über dem Knöchel\nPolsterung: Frottee an der ganzen Sohle\nGrößen: 35–38, 39–42, 43–46',
        url: 'https://outdoor-shop.example/de/lanura-trek-mid-wandersocken',
      },
    },
  },
  {
    id: 'P-12',
    type: 'product',
    images: [
      'https://cdn.outdoor-shop.example/img/P-12-1.jpg',
      'https://cdn.outdoor-shop.example/img/P-12-2.jpg',
    ],
    ean: '8594012345126',
    brand: 'Skarn',
    texts: {
      cs: {
        name: 'Outdoorové GPS hodinky Skarn Trace 2',
        short_description:
          'Outdoorové hodinky s GPS, barometrickým výškoměrem a výdrží až 30 hodin v režimu GPS.',
        description:
          '<p>Hodinky Skarn Trace 2 zaznamenávají trasu pomocí GPS, Galileo a GLONASS a dovedou vás zpět na start. Barometrický výškoměr a kompas pomohou s orientací i tam, kde chybí signál mobilu.</p>' +
          '<p>V běžném režimu chytrých hodinek vydrží baterie 14 dní, při nepřetržitém záznamu GPS 30 hodin. Hodinky jsou vodotěsné do 5 ATM, takže je můžete nosit i při plavání.</p>',
        parameter:
          'Výdrž baterie: 14 dní (chytré hodinky), 30 h (GPS)\nSatelitní systémy: GPS, Galileo, GLONASS\nSenzory: optický snímač tepu, barometrický výškoměr, kompas\nVodotěsnost: 5 ATM\nHmotnost: 52 g',
      },
      en: {
        name: 'Skarn Trace 2 GPS Outdoor Watch',
        short_description:
          'An outdoor watch with GPS, a barometric altimeter and up to 30 hours of battery life in GPS mode.',
        description:
          '<p>The Skarn Trace 2 records your route using GPS, Galileo and GLONASS and can guide you back to your starting point. A barometric altimeter and compass help with navigation even where there is no mobile signal.</p>' +
          '<p>In smartwatch mode the battery lasts 14 days, and with continuous GPS recording it lasts 30 hours. The watch is water-resistant to 5 ATM, so you can also wear it for swimming.</p>',
        parameter:
          'Battery life: 14 days (smartwatch), 30 h (GPS)\nSatellite systems: GPS, Galileo, GLONASS\nSensors: optical heart rate, barometric altimeter, compass\nWater resistance: 5 ATM\nWeight: 52 g',
      },
      de: {
        name: 'Skarn Trace 2 GPS-Outdooruhr',
        short_description:
          'Outdooruhr mit GPS, barometrischem Höhenmesser und bis zu 30 Stunden Akkulaufzeit im GPS-Modus.',
        description:
          '<p>Die Skarn Trace 2 zeichnet Ihre Route mit GPS, Galileo und GLONASS auf und führt Sie zurück zum Ausgangspunkt. Barometrischer Höhenmesser und Kompass helfen bei der Orientierung auch dort, wo es kein Mobilfunknetz gibt.</p>' +
          '<p>Im Smartwatch-Modus hält der Akku 14 Tage, bei durchgehender GPS-Aufzeichnung 30 Stunden. Die Uhr ist bis 5 ATM wasserdicht, sodass Sie sie auch beim Schwimmen tragen können.</p>',
        parameter:
          'Akkulaufzeit: 14 Tage (Smartwatch), 30 h (GPS)\nSatellitensysteme: GPS, Galileo, GLONASS\nSensoren: optische Herzfrequenzmessung, barometrischer Höhenmesser, Kompass\nWasserdichtigkeit: 5 ATM\nGewicht: 52 g',
      },
    },
  },

  // -------------------------------------------------------------- categories
  {
    id: 'C-01',
    type: 'category',
    images: [
      'https://cdn.outdoor-shop.example/img/C-01-1.jpg',
      'https://cdn.outdoor-shop.example/img/C-01-2.jpg',
    ],
    texts: {
      cs: {
        name: 'Turistické boty',
        short_description:
          'Nízké i kotníkové turistické boty na jednodenní výlety, vícedenní treky i vysokohorskou turistiku.',
        description:
          '<p>Na upravené stezky stačí nízká obuv s měkčí podrážkou, do kamenitého terénu a s těžším batohem volte kotníkové boty s pevnější podešví. Pokud často chodíte v dešti nebo po mokré trávě, vyplatí se membrána.</p>' +
          '<p>Jak poznám správnou velikost? Boty zkoušejte odpoledne v ponožkách, ve kterých chodíte na túry, a před prsty si nechte zhruba centimetr volného místa.</p>',
        parameter: 'Velikosti: 36–48\nVýška: nízké, kotníkové',
        url: 'https://outdoor-shop.example/cs/turisticke-boty',
      },
      en: {
        name: 'Hiking Boots',
        short_description:
          'Low-cut and mid-cut hiking boots for day walks, multi-day treks and alpine routes.',
        description:
          '<p>For well-kept trails, low shoes with a softer sole are enough; for rocky terrain and heavier packs, choose mid-cut boots with a stiffer sole. If you often walk in the rain or through wet grass, a waterproof membrane is worth having.</p>' +
          '<p>How do I find the right size? Try boots on in the afternoon wearing the socks you hike in, and leave about a centimetre of space in front of your toes.</p>',
        parameter: 'Sizes: 36–48\nHeight: low, mid',
        url: 'https://outdoor-shop.example/en/hiking-boots',
      },
      de: {
        name: 'Wanderschuhe',
        short_description:
          'Niedrige und halbhohe Wanderschuhe für Tageswanderungen, mehrtägige Trekkingtouren und alpine Routen.',
        description:
          '<p>Für gepflegte Wege reichen niedrige Schuhe mit weicherer Sohle, für steiniges Gelände und schwere Rucksäcke wählen Sie halbhohe Schuhe mit steiferer Sohle. Wenn Sie oft bei Regen oder durch nasses Gras gehen, lohnt sich eine wasserdichte Membran.</p>' +
          '<p>Wie finde ich die richtige Größe? Probieren Sie Schuhe am Nachmittag mit den Socken an, die Sie beim Wandern tragen, und lassen Sie vor den Zehen etwa einen Zentimeter Platz.</p>',
        parameter: 'Größen: 36–48\nSchafthöhe: niedrig, halbhoch',
        url: 'https://outdoor-shop.example/de/wanderschuhe',
      },
    },
  },
  {
    id: 'C-02',
    type: 'category',
    images: ['https://cdn.outdoor-shop.example/img/C-02-1.jpg'],
    texts: {
      cs: {
        name: 'Nepromokavé bundy',
        short_description: 'Nepromokavé bundy s membránou na turistiku, běh i každodenní nošení ve městě.',
        description:
          '<p>Vodní sloupec udává, jaký tlak vody materiál vydrží; na turistiku doporučujeme alespoň 10 000 mm. Třívrstvé bundy jsou odolnější a lépe snášejí tření od popruhů batohu, 2,5vrstvé jsou lehčí a sbalí se do menšího objemu. Pokud se hodně pohybujete, hledejte bundy s větracími zipy v podpaží.</p>',
        parameter: 'Velikosti: XS–3XL\nVodní sloupec: 10 000–28 000 mm',
        url: 'https://outdoor-shop.example/cs/nepromokave-bundy',
      },
      en: {
        name: 'Rain Jackets',
        short_description: 'Waterproof membrane jackets for hiking, running and everyday wear in town.',
        description:
          '<p>The hydrostatic head tells you how much water pressure the fabric can withstand; for hiking we recommend at least 10 000 mm. Three-layer jackets are tougher and cope better with abrasion from pack straps, while 2.5-layer jackets are lighter and pack smaller. If you move a lot, look for jackets with underarm vents.</p>',
        parameter: 'Sizes: XS–3XL\nHydrostatic head: 10 000–28 000 mm',
        url: 'https://outdoor-shop.example/en/rain-jackets',
      },
      de: {
        name: 'Regenjacken',
        short_description: 'Wasserdichte Membranjacken zum Wandern, Laufen und für den Alltag in der Stadt.',
        description:
          '<p>Die Wassersäule gibt an, welchem Wasserdruck das Material standhält; für Wanderungen empfehlen wir mindestens 10 000 mm. Dreilagige Jacken sind robuster und vertragen die Reibung von Rucksackträgern besser, 2,5-Lagen-Jacken sind leichter und kleiner verpackbar. Wenn Sie sich viel bewegen, achten Sie auf Belüftungsreißverschlüsse unter den Armen.</p>',
        parameter: 'Größen: XS–3XL\nWassersäule: 10 000–28 000 mm',
        url: 'https://outdoor-shop.example/de/regenjacken',
      },
    },
  },
  {
    id: 'C-03',
    type: 'category',
    images: [
      'https://cdn.outdoor-shop.example/img/C-03-1.jpg',
      'https://cdn.outdoor-shop.example/img/C-03-2.jpg',
    ],
    texts: {
      cs: {
        name: 'Batohy',
        short_description:
          'Batohy na jednodenní výlety, vícedenní treky i skialpinismus v objemech od 10 do 80 litrů.',
        description:
          '<p>Na jednodenní túru obvykle stačí 20–30 litrů, na víkend s přespáním na horské chatě 30–45 litrů a na vícedenní trek se stanem 50 litrů a více. Důležitější než objem je ale správná délka zad: bederní pás by měl sedět na kyčelních kostech, ne v pase. Před koupí si batoh vyzkoušejte se zátěží.</p>',
        url: 'https://outdoor-shop.example/cs/batohy',
      },
      en: {
        name: 'Backpacks',
        short_description: 'Backpacks for day hikes, multi-day treks and ski touring, from 10 to 80 litres.',
        description:
          '<p>A day hike usually calls for 20–30 litres, a weekend staying in mountain huts for 30–45 litres, and a multi-day trek with a tent for 50 litres or more. Getting the back length right matters more than volume, though: the hip belt should sit on your hip bones, not around your waist. Try the pack on with some weight in it before you buy.</p>',
        url: 'https://outdoor-shop.example/en/backpacks',
      },
      de: {
        name: 'Rucksäcke',
        short_description:
          'Rucksäcke für Tagestouren, mehrtägige Trekkingtouren und Skitouren von 10 bis 80 Litern.',
        description:
          '<p>Für eine Tageswanderung reichen meist 20–30 Liter, für ein Wochenende mit Hüttenübernachtung 30–45 Liter und für eine mehrtägige Tour mit Zelt 50 Liter und mehr. Wichtiger als das Volumen ist jedoch die passende Rückenlänge: Der Hüftgurt sollte auf den Beckenknochen sitzen, nicht in der Taille. Probieren Sie den Rucksack vor dem Kauf mit Gewicht an.</p>',
        url: 'https://outdoor-shop.example/de/rucksaecke',
      },
    },
  },
  {
    id: 'C-04',
    type: 'category',
    images: ['https://cdn.outdoor-shop.example/img/C-04-1.jpg'],
    texts: {
      cs: {
        name: 'Kempingové nádobí a vařiče',
        short_description: 'Vařiče, kartuše, hrnce a příbory pro vaření na túrách i v kempu.',
        description:
          '<p>Na krátké túry stačí lehký vařič na kartuše a jeden hrnec, ve kterém uvaříte vodu na čaj i na dehydrované jídlo. Ve větší skupině se vyplatí systém s výměníkem tepla, který ušetří plyn.</p>' +
          '<p>Funguje plynový vařič i v zimě? Při teplotách pod nulou ztrácí běžná kartuše tlak, proto používejte zimní směs plynu a kartuši noste v teple u těla.</p>',
        url: 'https://outdoor-shop.example/cs/kempingove-nadobi-a-varice',
      },
      en: {
        name: 'Camping Cookware and Stoves',
        short_description:
          'Stoves, gas canisters, pots and cutlery for cooking on the trail and at the campsite.',
        description:
          '<p>For short trips, a light canister stove and a single pot are enough to boil water for tea and dehydrated meals. For larger groups, a system with a heat exchanger is worth it because it saves gas.</p>' +
          '<p>Does a gas stove work in winter? Below freezing, a standard canister loses pressure, so use a winter gas mix and keep the canister warm close to your body.</p>',
        url: 'https://outdoor-shop.example/en/camping-cookware-and-stoves',
      },
      de: {
        name: 'Campinggeschirr und Kocher',
        short_description:
          'Kocher, Gaskartuschen, Töpfe und Besteck zum Kochen unterwegs und auf dem Campingplatz.',
        description:
          '<p>Für kurze Touren genügen ein leichter Kartuschenkocher und ein Topf, in dem Sie Wasser für Tee und Trockennahrung kochen. Für größere Gruppen lohnt sich ein System mit Wärmetauscher, weil es Gas spart.</p>' +
          '<p>Funktioniert ein Gaskocher auch im Winter? Bei Minusgraden verliert eine normale Kartusche an Druck, daher sollten Sie ein Wintergasgemisch verwenden und die Kartusche warm am Körper tragen.</p>',
        url: 'https://outdoor-shop.example/de/campinggeschirr-und-kocher',
      },
    },
  },
  {
    id: 'C-05',
    type: 'category',
    images: [],
    texts: {
      cs: {
        name: 'Čelovky',
        short_description:
          'Čelovky na turistiku, běh, lezení i pro nouzové situace, na baterie i s nabíjením přes USB.',
        description:
          '<p>Na táboření a večerní procházky stačí 100–200 lm, pro noční běh nebo sestup z hor volte 300 lm a více. Nabíjecí čelovky se vyplatí při častém používání, na vícedenní trek bez elektřiny jsou praktičtější modely na běžné baterie AAA. Červené světlo oceníte ve stanu, protože neoslňuje ostatní.</p>',
        url: 'https://outdoor-shop.example/cs/celovky',
      },
      en: {
        name: 'Headlamps',
        short_description:
          'Headlamps for hiking, running, climbing and emergencies, battery-powered or USB-rechargeable.',
        description:
          '<p>For camping and evening walks, 100–200 lm is plenty; for night running or descending from the mountains, choose 300 lm or more. Rechargeable headlamps pay off if you use them often, while models running on standard AAA batteries are more practical for multi-day treks without electricity. A red light mode is handy in the tent because it does not dazzle others.</p>',
        url: 'https://outdoor-shop.example/en/headlamps',
      },
      de: {
        name: 'Stirnlampen',
        short_description:
          'Stirnlampen für Wandern, Laufen, Klettern und Notfälle, mit Batterien oder per USB aufladbar.',
        description:
          '<p>Für Camping und Abendspaziergänge reichen 100–200 lm, für Nachtläufe oder den Abstieg aus den Bergen wählen Sie 300 lm oder mehr. Akku-Stirnlampen lohnen sich bei häufigem Gebrauch, für mehrtägige Touren ohne Strom sind Modelle mit handelsüblichen AAA-Batterien praktischer. Rotlicht ist im Zelt nützlich, weil es andere nicht blendet.</p>',
        url: 'https://outdoor-shop.example/de/stirnlampen',
      },
    },
  },

  // ------------------------------------------------------------------- blog
  {
    id: 'B-01',
    type: 'blog',
    images: [
      'https://cdn.outdoor-shop.example/img/B-01-1.jpg',
      'https://cdn.outdoor-shop.example/img/B-01-2.jpg',
    ],
    texts: {
      cs: {
        name: 'Jak vybrat turistické boty',
        description:
          '<p>Správné boty rozhodují o tom, jestli si túru užijete, nebo ji protrpíte s puchýři. Nejdřív si ujasněte, kam budete chodit nejčastěji: na lesní cesty stačí nízká obuv, do skalnatého terénu patří kotníková bota s tužší podešví.</p>' +
          '<p>Potřebuji boty s membránou? Pokud chodíte hlavně v létě za sucha, poslouží vám lépe prodyšnější boty bez membrány. Na horách a na jaře či na podzim se ale membrána vyplatí.</p>' +
          '<p>Boty zkoušejte odpoledne, kdy máte nohy trochu oteklé, a vždy v turistických ponožkách. Nové boty před delší túrou nejdřív rozchoďte na kratších výletech.</p>',
        url: 'https://outdoor-shop.example/cs/blog/jak-vybrat-turisticke-boty',
      },
      en: {
        name: 'How to Choose Hiking Boots',
        description:
          '<p>The right boots decide whether you enjoy a hike or spend it nursing blisters. First, think about where you will walk most often: low shoes are fine for forest tracks, while rocky terrain needs a mid-cut boot with a stiffer sole.</p>' +
          '<p>Do I need boots with a membrane? If you mostly hike in dry summer weather, more breathable boots without a membrane will serve you better. In the mountains and in spring or autumn, however, a membrane pays off.</p>' +
          '<p>Try boots on in the afternoon, when your feet are slightly swollen, and always with hiking socks. Break new boots in on shorter walks before a long hike.</p>',
        url: 'https://outdoor-shop.example/en/blog/how-to-choose-hiking-boots',
      },
      de: {
        name: 'So finden Sie die richtigen Wanderschuhe',
        description:
          '<p>Die richtigen Schuhe entscheiden darüber, ob Sie eine Tour genießen oder mit Blasen kämpfen. Überlegen Sie zuerst, wo Sie am häufigsten unterwegs sind: Für Waldwege reichen niedrige Schuhe, im felsigen Gelände brauchen Sie einen halbhohen Schuh mit steiferer Sohle.</p>' +
          '<p>Brauche ich Schuhe mit Membran? Wenn Sie vor allem im Sommer bei trockenem Wetter wandern, sind atmungsaktivere Schuhe ohne Membran die bessere Wahl. In den Bergen sowie im Frühjahr und Herbst lohnt sich eine Membran jedoch.</p>' +
          '<p>Probieren Sie Schuhe am Nachmittag an, wenn die Füße leicht geschwollen sind, und immer mit Wandersocken. Laufen Sie neue Schuhe vor einer langen Tour auf kürzeren Strecken ein.</p>',
        url: 'https://outdoor-shop.example/de/blog/richtige-wanderschuhe-finden',
      },
    },
  },
  {
    id: 'B-02',
    type: 'blog',
    images: ['https://cdn.outdoor-shop.example/img/B-02-1.jpg'],
    texts: {
      cs: {
        name: 'Vrstvení oblečení na zimní túry',
        description:
          '<p>Na zimní túře se střídá zahřátí při stoupání s rychlým prochladnutím na hřebeni nebo při přestávce. Proto je lepší obléct několik tenčích vrstev než jednu silnou bundu.</p>' +
          '<p>První vrstva z merina nebo syntetiky odvádí pot od těla. Druhá, hřejivá vrstva z fleecu nebo lehké péřové či syntetické bundy drží teplo. Třetí vrstva, nepromokavá bunda s membránou, chrání před větrem a sněhem.</p>' +
          '<p>Při stoupání si vrstvy sundejte dřív, než se zpotíte, a při zastávce si je hned zase oblečte.</p>',
        url: 'https://outdoor-shop.example/cs/blog/vrstveni-obleceni-na-zimni-tury',
      },
      en: {
        name: 'Layering for Winter Hikes',
        description:
          '<p>On a winter hike you warm up on the climbs and cool down quickly on an exposed ridge or during a break. That is why several thinner layers work better than one thick jacket.</p>' +
          '<p>A base layer of merino or synthetic fabric wicks sweat away from your skin. A mid layer of fleece or a light down or synthetic jacket keeps you warm. The outer layer, a waterproof membrane jacket, protects you from wind and snow.</p>' +
          '<p>Take layers off on the climb before you start sweating, and put them back on as soon as you stop.</p>',
        url: 'https://outdoor-shop.example/en/blog/layering-for-winter-hikes',
      },
      de: {
        name: 'Zwiebelprinzip: richtig anziehen für Wintertouren',
        description:
          '<p>Bei Wintertouren wechseln sich Aufwärmen im Anstieg und schnelles Auskühlen am Grat oder in der Pause ab. Deshalb sind mehrere dünnere Schichten besser als eine dicke Jacke.</p>' +
          '<p>Die erste Schicht aus Merino oder Kunstfaser leitet Schweiß von der Haut ab. Die mittlere Schicht aus Fleece oder einer leichten Daunen- oder Kunstfaserjacke hält warm. Die äußere Schicht, eine wasserdichte Membranjacke, schützt vor Wind und Schnee.</p>' +
          '<p>Ziehen Sie im Anstieg Schichten aus, bevor Sie ins Schwitzen kommen, und ziehen Sie sie in der Pause sofort wieder an.</p>',
        url: 'https://outdoor-shop.example/de/blog/zwiebelprinzip-wintertouren',
      },
    },
  },
  {
    id: 'B-03',
    type: 'blog',
    images: [
      'https://cdn.outdoor-shop.example/img/B-03-1.jpg',
      'https://cdn.outdoor-shop.example/img/B-03-2.jpg',
      'https://cdn.outdoor-shop.example/img/B-03-3.jpg',
    ],
    texts: {
      cs: {
        name: 'Jak správně sbalit batoh',
        description:
          '<p>Dobře sbalený batoh se nese pohodlněji a nehoupe se na zádech. Nejtěžší věci, jako je jídlo, vařič nebo voda, dejte doprostřed batohu co nejblíž k zádům. Spacák a náhradní oblečení patří na dno, protože je během dne nepotřebujete.</p>' +
          '<p>Bundu do deště, čelovku a svačinu mějte nahoře nebo v kapsách, kde je najdete bez vybalování. Celý postup ukazujeme v <a href="https://www.youtube.com/watch?v=t7Qe-M2yXaB">krátkém videu</a>.</p>',
        url: 'https://outdoor-shop.example/cs/blog/jak-spravne-sbalit-batoh',
      },
      en: {
        name: 'How to Pack a Backpack',
        description:
          '<p>A well-packed backpack carries more comfortably and does not sway on your back. Put the heaviest items, such as food, stove and water, in the middle of the pack as close to your back as possible. Your sleeping bag and spare clothes go at the bottom because you will not need them during the day.</p>' +
          '<p>Keep your rain jacket, headlamp and snacks at the top or in the pockets, where you can reach them without unpacking. We show the whole process in a <a href="https://www.youtube.com/watch?v=t7Qe-M2yXaB">short video</a>.</p>',
        url: 'https://outdoor-shop.example/en/blog/how-to-pack-a-backpack',
      },
      de: {
        name: 'Rucksack richtig packen',
        description:
          '<p>Ein gut gepackter Rucksack trägt sich bequemer und schwankt nicht auf dem Rücken. Die schwersten Dinge wie Essen, Kocher oder Wasser gehören in die Mitte, möglichst nah an den Rücken. Schlafsack und Wechselkleidung kommen nach unten, weil Sie sie tagsüber nicht brauchen.</p>' +
          '<p>Regenjacke, Stirnlampe und Snacks verstauen Sie oben oder in den Außentaschen, damit Sie sie ohne Auspacken erreichen. Wie das in der Praxis aussieht, zeigen wir in einem <a href="https://www.youtube.com/watch?v=t7Qe-M2yXaB">kurzen Video</a>.</p>',
        url: 'https://outdoor-shop.example/de/blog/rucksack-richtig-packen',
      },
    },
  },
  {
    id: 'B-04',
    type: 'blog',
    images: ['https://cdn.outdoor-shop.example/img/B-04-1.jpg'],
    texts: {
      cs: {
        name: 'Jak pečovat o péřový spacák',
        description:
          '<p>Péřový spacák hřeje jen tehdy, když je peří suché a nadýchané. Po každé túře ho proto vyvětrejte a doma skladujte volně ve velkém úložném vaku, nikdy ne dlouhodobě v kompresním obalu.</p>' +
          '<p>Jak často je potřeba spacák prát? Stačí jednou za sezónu nebo ve chvíli, kdy začne ztrácet objem. Perte ho na šetrném programu při 30 °C s prostředkem na peří a sušte v sušičce s tenisovými míčky, které rozbijí shluky peří.</p>',
        url: 'https://outdoor-shop.example/cs/blog/jak-pecovat-o-perovy-spacak',
      },
      en: {
        name: 'How to Care for a Down Sleeping Bag',
        description:
          '<p>A down sleeping bag only keeps you warm when the down is dry and lofty. After every trip, air it out, and at home store it loosely in a large storage sack, never in its compression sack for long periods.</p>' +
          '<p>How often should a sleeping bag be washed? Once a season is enough, or whenever it starts to lose loft. Wash it on a gentle 30 °C cycle with a down detergent and tumble dry it with tennis balls to break up clumps.</p>',
        url: 'https://outdoor-shop.example/en/blog/how-to-care-for-a-down-sleeping-bag',
      },
      de: {
        name: 'So pflegen Sie Ihren Daunenschlafsack',
        description:
          '<p>Ein Daunenschlafsack wärmt nur, wenn die Daunen trocken und aufgebauscht sind. Lüften Sie ihn deshalb nach jeder Tour gut aus und lagern Sie ihn zu Hause locker in einem großen Aufbewahrungssack, nie längere Zeit im Kompressionssack.</p>' +
          '<p>Wie oft sollte man einen Schlafsack waschen? Einmal pro Saison genügt, oder sobald er an Bauschkraft verliert. Waschen Sie ihn im Schonwaschgang bei 30 °C mit Daunenwaschmittel und trocknen Sie ihn im Trockner mit Tennisbällen, die Daunenklumpen auflockern.</p>',
        url: 'https://outdoor-shop.example/de/blog/daunenschlafsack-pflegen',
      },
    },
  },
  {
    id: 'B-05',
    type: 'blog',
    images: [],
    texts: {
      cs: {
        name: 'První túra s přespáním: co si sbalit',
        description:
          '<p>První noc venku nemusí být náročná, pokud si dobře připravíte výbavu. Vyberte si trasu na jeden den chůze a místo, kde je nocování povolené.</p>' +
          '<ul><li>stan, spacák a karimatka</li><li>vařič, kartuše, hrnec a jídlo na večeři i snídani</li><li>čelovka, lékárnička a nabitý telefon</li><li>teplá vrstva a bunda do deště</li></ul>' +
          '<p>Večer před odchodem si batoh zkušebně sbalte a zvažte. Nezapomeňte někomu říct, kam jdete a kdy se vrátíte.</p>',
        url: 'https://outdoor-shop.example/cs/blog/prvni-tura-s-prespanim',
      },
      en: {
        name: 'Your First Overnight Hike: What to Pack',
        description:
          '<p>Your first night outdoors does not have to be hard if you prepare your gear well. Choose a route that takes one day to walk and a place where camping is allowed.</p>' +
          '<ul><li>tent, sleeping bag and sleeping mat</li><li>stove, gas canister, pot and food for dinner and breakfast</li><li>headlamp, first aid kit and a charged phone</li><li>a warm layer and a rain jacket</li></ul>' +
          '<p>The evening before you leave, do a test pack and weigh your backpack. Do not forget to tell someone where you are going and when you will be back.</p>',
        url: 'https://outdoor-shop.example/en/blog/first-overnight-hike-packing-list',
      },
      de: {
        name: 'Die erste Tour mit Übernachtung: die Packliste',
        description:
          '<p>Die erste Nacht draußen muss nicht anstrengend sein, wenn Sie Ihre Ausrüstung gut vorbereiten. Wählen Sie eine Route für einen Tag Gehzeit und einen Platz, an dem Übernachten erlaubt ist.</p>' +
          '<ul><li>Zelt, Schlafsack und Isomatte</li><li>Kocher, Gaskartusche, Topf und Essen für Abendessen und Frühstück</li><li>Stirnlampe, Erste-Hilfe-Set und ein geladenes Handy</li><li>eine warme Schicht und eine Regenjacke</li></ul>' +
          '<p>Packen Sie den Rucksack am Abend vorher probeweise und wiegen Sie ihn. Sagen Sie jemandem, wohin Sie gehen und wann Sie zurück sein wollen.</p>',
        url: 'https://outdoor-shop.example/de/blog/erste-tour-mit-uebernachtung-packliste',
      },
    },
  },
];
