// A multilingual corpus for the exact counters (issue 26): chat-like sentences in twelve
// scripts and languages, written for ctxloom (no third-party text), and messages drawn from
// them with a seeded generator. The tests compare counts on it; bench/tokens.bench.ts times
// the counters per message on it, one row per script.

import { rng } from "../recall/eval-set.js";

export const SCRIPTS = {
  german: [
    "Kannst du mir bitte erklären, wie ich meine Heizungsanlage im Winter effizienter einstellen kann?",
    "Die Größe der Wohnung beträgt etwa 85 Quadratmeter, und die Miete liegt bei 1.200 Euro pro Monat.",
    "Ich würde vorschlagen, dass wir zunächst die Anforderungen klären, bevor wir mit der Umsetzung beginnen.",
    "Übrigens: Für die Prüfung am Donnerstag solltest du die Kapitel über Thermodynamik noch einmal durchgehen.",
    "Schöne Grüße aus München! Das Wetter ist heute überraschend mild, fast 18 Grad.",
    "Hier ist eine kurze Übersicht der wichtigsten Schritte:\n1. Daten sammeln\n2. Ergebnisse prüfen\n3. Bericht schreiben",
    "Könntest du den Text etwas förmlicher formulieren? Er ist für eine Bewerbung bei einer Versicherungsgesellschaft.",
    "Natürlich! Fußgänger haben an diesem Übergang immer Vorrang, auch wenn die Ampel ausgefallen ist.",
    "Das Rezept braucht 250 g Mehl, zwei Eier, eine Prise Salz und etwas geriebene Muskatnuss.",
    "Warum läuft mein Python-Skript so langsam, obwohl ich nur eine Schleife über zehntausend Einträge habe?",
    "Die Bundesregierung hat neue Förderprogramme für energieeffiziente Gebäudesanierung angekündigt.",
    "Äpfel, Birnen und Pflaumen gehören zu den häufigsten Obstsorten in deutschen Gärten.",
  ],
  french: [
    "Pourriez-vous m'expliquer la différence entre l'imparfait et le passé composé, s'il vous plaît ?",
    "Je cherche une recette de crêpes sans gluten ; j'ai déjà essayé avec de la farine de riz, mais elles se cassent.",
    "L'été dernier, nous avons traversé la Bretagne à vélo : c'était épuisant mais vraiment très agréable.",
    "Voici les étapes à suivre :\n- vérifier la configuration\n- redémarrer le serveur\n- relancer les tests",
    "Il faut prévoir environ 3 à 4 heures de préparation, et le budget s'élève à 1 500 € au total.",
    "Ça dépend de ce que tu préfères : un hôtel près de la gare ou un gîte à la campagne ?",
    "Les élèves doivent rendre leur dissertation avant vendredi, à midi précise.",
    "Œuvre majeure du XIXe siècle, ce roman décrit la société française avec une précision étonnante.",
    "Mon ordinateur portable chauffe énormément dès que j'ouvre plus de trois onglets dans le navigateur.",
    "Quelle est la meilleure façon d'apprendre à coder quand on n'a aucune expérience préalable ?",
    "Les négociations ont échoué, car aucune des deux parties n'était prête à faire des concessions.",
    "N'oubliez pas de sauvegarder régulièrement vos données sur un disque externe ou dans le nuage.",
  ],
  polish: [
    "Czy możesz mi pomóc napisać krótki list motywacyjny do firmy zajmującej się logistyką?",
    "Wczoraj padał deszcz przez cały dzień, więc zostałem w domu i czytałem książkę.",
    "Żeby zrobić dobre pierogi, potrzebujesz mąki, ciepłej wody, odrobiny soli i cierpliwości.",
    "Zaświadczenie można odebrać w urzędzie od poniedziałku do piątku w godzinach 8–16.",
    "Gdzie znajdę najtańsze bilety lotnicze z Gdańska do Wrocławia na przyszły weekend?",
    "Źródłem problemu była źle skonfigurowana baza danych, która odrzucała połączenia.",
    "Ćwiczenia fizyczne trzy razy w tygodniu znacząco poprawiają samopoczucie i jakość snu.",
    "Dziękuję za szybką odpowiedź! Spróbuję jeszcze raz i dam znać, czy zadziałało.",
    "Jaka jest różnica między aspektem dokonanym a niedokonanym w języku polskim?",
    "Proszę sprawdzić, czy wszystkie pliki zostały poprawnie przesłane na serwer.",
    "Łódź słynie z przemysłu włókienniczego, a dziś także z festiwali i szkoły filmowej.",
    "Mój pies boi się burzy i chowa się pod łóżkiem, gdy tylko usłyszy grzmot.",
  ],
  russian: [
    "Подскажите, пожалуйста, как настроить автоматическое резервное копирование на сервере?",
    "Вчера мы ходили в театр на новую постановку, и мне очень понравилась игра актёров.",
    "Для приготовления борща понадобятся свёкла, капуста, морковь, картофель и немного чеснока.",
    "Ошибка возникает из-за того, что переменная не инициализирована перед первым использованием.",
    "Объясни, пожалуйста, разницу между совершенным и несовершенным видом глагола.",
    "Температура в Москве сегодня около −5 °C, но к выходным обещают потепление.",
    "Вот краткий план:\n1. Собрать требования\n2. Написать прототип\n3. Провести тестирование",
    "Я изучаю программирование уже полгода и хочу найти первую работу в этой сфере.",
    "Стоимость поездки составит примерно 45 000 рублей, включая перелёт и проживание.",
    "Какие книги вы бы посоветовали прочитать человеку, который только начинает интересоваться историей?",
    "Съёмки фильма проходили в небольшом городе на берегу Волги.",
    "Не забудьте взять с собой паспорт, страховку и зарядное устройство для телефона.",
  ],
  greek: [
    "Μπορείτε να μου εξηγήσετε πώς λειτουργεί η φωτοσύνθεση με απλά λόγια;",
    "Χθες το βράδυ πήγαμε σε μια ταβέρνα στην Πλάκα και φάγαμε εξαιρετικό μουσακά.",
    "Η συνάντηση μεταφέρθηκε για την Τετάρτη στις 10:30, στο γραφείο του διευθυντή.",
    "Ποια είναι η καλύτερη εποχή για να επισκεφτεί κανείς τις Κυκλάδες;",
    "Το πρόγραμμα εμφανίζει σφάλμα όταν προσπαθώ να ανοίξω ένα αρχείο μεγαλύτερο από 2 GB.",
    "Ευχαριστώ πολύ για τη βοήθεια! Θα δοκιμάσω τη λύση σου και θα σε ενημερώσω.",
    "Οι αρχαίοι Έλληνες φιλόσοφοι ασχολήθηκαν με ερωτήματα για τη φύση της γνώσης.",
    "Χρειάζομαι μια συνταγή για σπανακόπιτα χωρίς αυγά· έχεις κάποια ιδέα;",
    "Η θερμοκρασία θα κυμανθεί από 18 έως 26 βαθμούς, με ασθενείς βοριάδες.",
    "Γράψε μου ένα σύντομο ποίημα για τη θάλασσα και το καλοκαίρι.",
    "Ο φάκελος περιέχει όλα τα απαραίτητα έγγραφα για την αίτηση υποτροφίας.",
    "ΠΡΟΣΟΧΗ: Η υπηρεσία δεν θα είναι διαθέσιμη λόγω συντήρησης.",
  ],
  chinese: [
    "你能帮我解释一下机器学习和深度学习之间的区别吗？",
    "我们下周末打算去杭州旅游，请推荐几个值得一去的景点。",
    "这个函数在处理空数组时会报错，应该先检查输入是否为空。",
    "今天北京的气温大约是25度，下午可能会有雷阵雨。",
    "学习中文最难的部分是声调，其次是记住大量的汉字。",
    "请把这段文字翻译成英文，并保持原来的语气和格式。",
    "以下是具体步骤：\n1. 安装依赖\n2. 修改配置文件\n3. 重新启动服务",
    "这本书讲述了一个普通家庭在三十年间经历的变化。",
    "如果预算有限，可以考虑购买二手笔记本电脑，但要注意电池寿命。",
    "谢谢你的建议！我会按照你说的方法再试一次。",
    "根据最新的统计数据，城市人口已经超过全国总人口的百分之六十。",
    "做红烧肉需要五花肉、冰糖、生抽、老抽和一点料酒。",
  ],
  japanese: [
    "すみません、この文章をもう少し丁寧な言い方に直していただけますか？",
    "明日の会議は午後3時から始まりますので、資料を事前に確認しておいてください。",
    "東京から京都までは新幹線で約2時間15分かかります。",
    "プログラムを実行すると「ファイルが見つかりません」というエラーが表示されます。",
    "日本語の敬語は難しいですが、毎日少しずつ練習すれば上達します。",
    "週末は友達と一緒にカフェでコーヒーを飲みながら、ゆっくり話しました。",
    "このレシピでは、醤油、みりん、砂糖を同じ量ずつ混ぜてタレを作ります。",
    "手順は次のとおりです：\n・リポジトリをクローンする\n・依存関係をインストールする\n・テストを実行する",
    "桜の季節になると、公園はお花見をする人々でいっぱいになります。",
    "ご質問ありがとうございます。詳しく説明させていただきます。",
    "最近、リモートワークが増えたことで、通勤時間が大幅に減りました。",
    "子供の頃、夏休みになると毎年おばあちゃんの家に遊びに行っていました。",
  ],
  korean: [
    "안녕하세요, 파이썬으로 웹 크롤러를 만드는 방법을 알려주실 수 있나요?",
    "오늘 서울 날씨는 맑고 기온은 약 22도로 산책하기 좋습니다.",
    "이 코드는 배열이 비어 있을 때 오류가 발생하니 먼저 길이를 확인하세요.",
    "주말에 가족들과 함께 부산에 가서 해산물을 많이 먹었어요.",
    "한국어를 배우는 가장 좋은 방법은 드라마를 보면서 자주 따라 말하는 것입니다.",
    "회의는 다음 주 화요일 오후 2시로 변경되었습니다. 참고 부탁드립니다.",
    "김치찌개를 만들려면 잘 익은 김치, 돼지고기, 두부, 그리고 대파가 필요해요.",
    "다음 단계를 따라 하세요:\n1. 패키지 설치\n2. 환경 변수 설정\n3. 서버 실행",
    "도와주셔서 정말 감사합니다! 덕분에 문제를 해결했어요.",
    "요즘 물가가 많이 올라서 장보기가 부담스러워졌습니다.",
    "이 책은 조선 시대 평범한 사람들의 일상생활을 자세히 보여 줍니다.",
    "비밀번호는 최소 12자 이상이어야 하며, 숫자와 특수 문자를 포함해야 합니다.",
  ],
  arabic: [
    "هل يمكنك أن تشرح لي كيف يعمل الذكاء الاصطناعي بطريقة بسيطة؟",
    "سافرنا الأسبوع الماضي إلى الإسكندرية وقضينا وقتاً رائعاً على الشاطئ.",
    "يظهر خطأ عند تشغيل البرنامج لأن الملف غير موجود في المجلد الصحيح.",
    "درجة الحرارة اليوم في الرياض حوالي ٣٨ درجة مئوية، لذا اشرب الكثير من الماء.",
    "أريد تعلّم اللغة الإنجليزية بسرعة، ما هي أفضل الطرق لذلك؟",
    "شكراً جزيلاً على مساعدتك! سأجرب الحل وأخبرك بالنتيجة.",
    "لتحضير الحمص تحتاج إلى الحمص المسلوق والطحينة وعصير الليمون والثوم وزيت الزيتون.",
    "الخطوات كالتالي:\n١. تثبيت الحزم\n٢. تعديل الإعدادات\n٣. إعادة تشغيل الخادم",
    "يُعَدُّ الأدب العربي من أغنى الآداب في العالم بتاريخه الطويل وتنوّعه.",
    "سيُعقد الاجتماع يوم الخميس في تمام الساعة العاشرة صباحاً.",
    "كم تبلغ تكلفة الشحن من دبي إلى القاهرة لطرد وزنه 5 كيلوغرامات؟",
    "من المهم أن تحفظ نسخة احتياطية من ملفاتك بشكل منتظم.",
  ],
  hindi: [
    "क्या आप मुझे समझा सकते हैं कि कृत्रिम बुद्धिमत्ता कैसे काम करती है?",
    "कल हम अपने परिवार के साथ जयपुर घूमने गए और वहाँ का किला बहुत सुंदर था।",
    "यह प्रोग्राम तब त्रुटि देता है जब इनपुट फ़ाइल खाली होती है।",
    "आज दिल्ली का तापमान लगभग 32 डिग्री सेल्सियस है, इसलिए पर्याप्त पानी पिएँ।",
    "मुझे हिंदी व्याकरण में संज्ञा और सर्वनाम का अंतर समझ नहीं आता।",
    "आपकी मदद के लिए बहुत-बहुत धन्यवाद! मैं यह तरीका आज़माकर बताऊँगा।",
    "दाल बनाने के लिए अरहर की दाल, हल्दी, नमक, जीरा और घी चाहिए।",
    "नीचे दिए गए चरणों का पालन करें:\n१. पैकेज इंस्टॉल करें\n२. सेटिंग बदलें\n३. सर्वर दोबारा चालू करें",
    "बैठक अगले सोमवार सुबह दस बजे होगी, कृपया समय पर पहुँचें।",
    "भारत में मानसून जून से सितंबर तक रहता है और खेती के लिए बहुत महत्वपूर्ण है।",
    "इस किताब में एक छोटे गाँव के बच्चों की कहानी बताई गई है।",
    "नया फ़ोन ख़रीदने से पहले उसकी बैटरी और कैमरे की समीक्षा ज़रूर पढ़ें।",
  ],
  emoji: [
    "Happy birthday!! 🎉🎂🥳 Hope your day is amazing 💖✨",
    "lol 😂😂😂 that's exactly what happened to me yesterday 🤦‍♀️",
    "Team photo 👨‍👩‍👧‍👦 at the beach 🏖️☀️🌊 #summer",
    "Great work everyone 👏🏽👏🏽👏🏽 proud of this team 💪🏾🔥",
    "Flights booked ✈️ 🇯🇵 → 🇰🇷 → 🇹🇭 can't wait!! 🤩",
    "Pride month 🏳️‍🌈🏳️‍⚧️ love is love ❤️🧡💛💚💙💜",
    "Coffee ☕ + code 👩🏻‍💻 = productive morning 📈✅",
    "Sorry I'm late 🙏🏼 traffic was terrible 🚗🚕🚙🚌",
    "Our new hire 🧑🏿‍🚀 just shipped the feature 🚀🚀 well done 🙌🏻",
    "Weather today: 🌧️🌧️ then ⛅ later 🌈",
    "Recipe: 🍅🧄🧅🫒 → 🍝 ready in 20 min ⏱️",
    "Good night 🌙✨😴 see you tomorrow 👋🏽💤 🏴󠁧󠁢󠁳󠁣󠁴󠁿",
  ],
  mixed: [
    "In German we say „Schönen Tag noch!“, in Russian «Хорошего дня!», and in Japanese 良い一日を！",
    "The function `привет()` returns a 字符串 with the greeting 🙂",
    "She said «Ça va très bien» and then switched to 한국어 — 정말 재미있어요!",
    "Order #4521: 2× café au lait, 1× 抹茶ラテ, total €12.50 ✅",
    "// TODO: обработать ошибку, если файл не найден\nconst data = readFile(path);",
    "العنوان: 12 شارع النيل، القاهرة — Tel: +20 2 1234 5678",
    "Keywords: データベース, बाज़ार, Ελλάδα, Kraków, Zürich, Москва 🌍",
    "Q: Where is the station? A: 駅は右です。 B: Ο σταθμός είναι δεξιά.",
    "Translate «добро пожаловать» into 中文 and 日本語, please 🙏🏽",
    "Naïve Bayes vs. SVM: qual é melhor para classificação de textos em português?",
    "Meeting notes — Zoom 14:00 (CET):\n• Überblick Q3\n• 予算の確認\n• Следующие шаги",
    "Price: ₹1,499 / ¥2,800 / 12 000 ₽ — which store is cheapest? 🤔",
  ],
} as const satisfies Record<string, readonly string[]>;

export type Script = keyof typeof SCRIPTS;
export const SCRIPT_NAMES = Object.keys(SCRIPTS) as Script[];

/** Scripts written without spaces between words: remixed from slices of their sentences. */
const UNSPACED: ReadonlySet<Script> = new Set(["chinese", "japanese"]);

/**
 * A sentence made anew from a script's own material, so that messages do not repeat whole
 * sentences (a counter's cache of pieces would hit on every one, as real text does not):
 * 6 to 17 of its words in random order, or for unspaced scripts clauses of random slices.
 */
function remix(script: Script, random: () => number): string {
  const sentences = SCRIPTS[script];
  const any = () => sentences[Math.floor(random() * sentences.length)]!;
  const last = [...any()].pop()!;
  const end = /\p{P}/u.test(last) ? last : ".";
  if (UNSPACED.has(script)) {
    const clauses: string[] = [];
    for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
      let clause = "";
      for (let k = 1 + Math.floor(random() * 3); k > 0; k--) {
        const from = any().replace(/\s+/g, "");
        const at = Math.floor(random() * Math.max(1, from.length - 6));
        clause += from.slice(at, at + 2 + Math.floor(random() * 5));
      }
      clauses.push(clause);
    }
    return clauses.join(script === "chinese" ? "，" : "、") + end;
  }
  const words: string[] = [];
  for (let n = 6 + Math.floor(random() * 12); n > 0; n--) {
    const pool = any().split(/\s+/);
    words.push(pool[Math.floor(random() * pool.length)]!.replace(/[.,!?;:؟।]+$/u, "") + (random() < 0.1 ? "," : ""));
  }
  const text = words.join(" ").replace(/,$/, "");
  return text.charAt(0).toUpperCase() + text.slice(1) + end;
}

/**
 * `count` chat messages in a script: 1 to 6 sentences, each one of its own (two in five) or
 * remixed from them, joined by a space or a blank line.
 */
export function messages(script: Script, count: number, seed: number): string[] {
  const random = rng(seed);
  const sentences = SCRIPTS[script];
  const sentence = () => (random() < 0.4 ? sentences[Math.floor(random() * sentences.length)]! : remix(script, random));
  return Array.from({ length: count }, () => {
    let text = sentence();
    for (let n = Math.floor(random() * 6); n > 0; n--) text += (random() < 0.25 ? "\n\n" : " ") + sentence();
    return text;
  });
}
