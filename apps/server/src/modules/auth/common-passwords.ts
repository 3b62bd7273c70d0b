/**
 * Passwords that attackers try first: about 1,400 of the most common passwords from public
 * breach corpora (sequences, keyboard walks, names, words and their usual digit suffixes),
 * written from memory for this project and lower-cased. Only entries of 6 characters or more
 * are listed, because anything shorter is refused by the length rule already.
 */
const LIST = `
123456 password 12345678 qwerty 123456789 111111 1234567 dragon 123123 baseball abc123 football
monkey letmein 696969 shadow master 666666 qwertyuiop 123321 mustang 1234567890 michael 654321
superman 1qaz2wsx 7777777 121212 000000 qazwsx 123qwe killer trustno1 jordan jennifer zxcvbnm
asdfgh hunter buster soccer harley batman andrew tigger sunshine iloveyou charlie robert thomas
hockey ranger daniel starwars klaster 112233 george computer michelle jessica pepper zxcvbn
555555 11111111 131313 freedom 777777 maggie 159753 aaaaaa ginger princess joshua cheese amanda
summer ashley nicole chelsea biteme matthew access yankees 987654321 dallas austin thunder
taylor matrix mobilemail monitor monitoring montana moscow william corvette martin heather
secret merlin diamond 1234qwer gfhjkm hammer silver 222222 88888888 anthony justin bailey
q1w2e3r4t5 patrick internet scooter orange golfer cookie richard samantha bigdog guitar jackson
whatever mickey chicken sparky snoopy maverick phoenix camaro peanut morgan welcome falcon
cowboy ferrari samsung andrea smokey steelers joseph mercedes dakota arsenal eagles melissa
boomer booboo spider nascar monster tigers yellow xxxxxx 123123123 gateway marina diablo bulldog
qwer1234 compaq purple hardcore banana junior hannah 123654 porsche lakers iceman cowboys 987654
london tennis 999999 ncc1701 coffee scooby miller boston q1w2e3r4 brandon yamaha chester mother
forever johnny edward 333333 oliver redsox player nikita knight fender barney midnight please
brandy chicago badboy slayer rangers charles flower rabbit wizard bigdick jasper rachel steven
winner adidas victoria natasha 1q2w3e4r jasmine winter prince panties marine ghbdtn fishing
cocacola casper 232323 raiders 888888 marlboro gandalf asdfasdf crystal 87654321 12344321 golden
blowme 8675309 panther lauren angela spanky thx1138 angels madison winston shannon toyota
blowjob jordan23 canada sophie apples 123abc pokemon qazxsw qwaszx muffin johnson murphy cooper
jonathan liverpoo danielle 159357 jackie 123456a 789456 turtle abcd1234 scorpion qazwsxedc
101010 butter carlos password1 dennis slipknot qwerty123 booger startrek 12341234 cameron
newyork rainbow nathan rocket viking redskins butthead asdfghjkl sierra peaches gemini doctor
wilson sandra helpme qwertyui victor florida dolphin pookie captain tucker liverpool theman
bandit dolphins maddog packers jaguar lovers nicholas united tiffany maxwell zzzzzz nirvana
jeremy suckit stupid monica elephant giants jackass hotdog rosebud success debbie mountain
444444 xxxxxxxx warrior 1q2w3e4r5t q1w2e3 123456q albert metallic azerty shithead bond007 alexis
1111111 samson willie scorpio bonnie gators benjamin voodoo driver dexter calvin freddy 212121
creative 12345a sydney rush2112 asdfghjk red123 4815162342 passw0rd trouble gunner fuckyou
gordon legend jessie stella eminem arthur nissan bullshit america 1qazxsw2 nothing parker
rebecca qweqwe garfield 01012011 beavis 69696969 asdasd december 102030 252525 11223344 apollo
skippy 315475 kitten copper braves shelby godzilla beaver tomcat august airborne lifehack qqqqqq
brooklyn animal platinum phantom online xavier darkness blink182 789456123 voyager police travis
12qwaszx heaven snowball abcdef pakistan 007007 walter playboy blazer cricket sniper hooters
donkey willow loveme saturn therock redwings bigboy pumpkin trinity williams nintendo digital
destiny topgun runner marvin guinness chance bubbles testing november minecraft asdf1234
lasvegas sergey broncos cartman private celtic birdie little cassie babygirl donald beatles
dickhead family 12121212 school louise gabriel eclipse fluffy 147258369 lol123 explorer nelson
flyers spencer lovely gibson doggie cherry andrey snickers buffalo pantera metallica member
carter qwertyu alexande steelers1 spiderman iloveu 123456789a 12345q aa123456 qwe123 a123456
zaq12wsx 147258 1q2w3e qwerty1 qweasdzxc 1qaz2wsx3edc 123qweasd qweasd 1q2w3e4r5t6y zaq1zaq1
qazwsx123 password123 password12 passw0rd1 p@ssw0rd p@ssword pa55word pa$$word password!
welcome1 welcome123 letmein1 letmein123 admin123 admin1 administrator changeme default qwerty12
abc1234 abcdef1 abcd123 iloveyou1 iloveyou2 princess1 monkey1 dragon1 football1 baseball1
sunshine1 superman1 batman1 master1 shadow1 michael1 jordan1 hello1 hello123 charlie1 ashley1
jessica1 killer1 soccer1 hunter1 tigger1 chocolate flowers loveyou lovelove mylove babygirl1
angel1 friends butterfly purple1 sweety sweetheart princesa tequiero estrela senha123 mudar123
qwertz azertyuiop 1234abcd 1234asdf a1b2c3 a1b2c3d4 1a2b3c 123aaa aaa111 abc123456 123abc456
qaz123 qwe123qwe 123qaz asd123 zxc123 zxcvbn1 zxcvbnm1 asdfgh1 qazxswedc zxcvbnm123 mnbvcxz
poiuytrewq lkjhgfdsa 0987654321 09876543 9876543210 98765432 147852 147852369 741852963
963852741 159753456 753951 456789 456123 321654 123789 789123 741852 852963 147147 258258 369369
123456789012 01234567 0123456789 012345 1212121 11112222 12211221 12312312 121314 131415
13141516 12345678910 1234554321 123454321 112358 314159 31415926 2718281828 000001 000007 100200
102938 1029384756 5201314 520520 521521 1314520 1111111111 2222222 333333333 55555555 66666666
6666666 7777777777 9999999 aaaaaaa aaaaaaaa abcabc abcabc123 abcdabcd abcdefg abcdefgh abcdefghi
qwertyuio qwertyuiop123 qwertyuiop1 qwerty12345 qwerty1234 qwerty123456 qwerty7 asdfghjkl1
asdfghjkl123 zxcvbnm12 q1w2e3r4t5y6 1q2w3e4r5 12qw12qw 1qw23e 1qwerty password2 password3
password7 password8 password9 password11 password1234 password01 pass123 pass1234 pass12
passwort passwd passpass pwd123 secret1 secret123 letmein! iloveyou! welcome! hello! qwerty!
abc123! 123456! 1234567! 12345678! trustme iamthebest whatever1 nothing1 superstar starwars1
pokemon1 naruto onepiece pikachu dragonball sasuke hinata sakura bleach ichigo minecraft1 roblox
fortnite callofduty warcraft counterstrike xbox360 playstation nintendo64 tetris pacman gameover
player1 computer1 internet1 windows ubuntu macintosh apple123 iphone android samsung1 google
hotmail facebook twitter myspace youtube instagram tiktok email123 mypass mypassword mypass123
mysecret secretpass password0 passwrd letmein2 letmein12 opensesame sesame abracadabra alohomora
hocuspocus magic123 jesus1 christ godisgood blessed blessing heaven1 angel123 savior church
spirit trinity1 jesuschrist love123 love12 iloveu2 iloveme lovers1 lovely1 loving juliet kisses
honey1 sweetie cupcake lollipop chocolate1 cookies cheese1 burger hotdog1 pepper1 banana1
orange1 strawberry blueberry cherry1 apple1 coconut pineapple watermelon summer1 winter1 spring
autumn sunshine2 rainbow1 snowflake thunder1 lightning hurricane tornado forest nature flower1
tiger1 falcon1 wolves penguin dolphin1 turtle1 monkey12 donkey1 horses unicorn kitty1 kitten1
puppies catdog bunny1 hamster fishing1 hunting golfing skiing surfing skater skateboard
snowboard biking football2 soccer12 baseball2 basketball hockey1 tennis1 boxing wrestling
yankees1 lakers1 cowboys1 steelers2 packers1 eagles1 giants1 patriots broncos1 raiders1
redskins1 celtics1 chelsea1 arsenal1 liverpool1 manchester barcelona realmadrid juventus ronaldo
beckham jordan2 lebron michael2 daniel1 david1 james1 robert1 thomas1 william1 joseph1 richard1
charles1 christopher chris1 matthew1 anthony1 markus andrew1 joshua1 steven1 edward1 george1
ronald timothy jason1 jeffrey nicholas1 jonathan1 stephen justin1 scott1 brandon1 benjamin1
samuel gregory raymond alexander patrick1 dennis1 douglas nathan1 peter1 zachary walter1 harold
jeremy1 patricia jennifer1 elizabeth barbara jessica2 margaret sandra1 ashley2 kimberly
michelle1 dorothy amanda1 melissa1 deborah stephanie rebecca1 sharon cynthia kathleen shirley
angela1 brenda pamela nicole1 samantha1 katherine christine rachel1 catherine carolyn heather1
virginia victoria1 olivia christina lauren1 evelyn judith cheryl andrea1 hannah1 martha
jacqueline frances gloria teresa kathryn janice madison1 abigail grace1 denise marilyn beverly
danielle1 theresa sophia brittany natalie isabella charlotte alexis1 jessie1 jasmine1 tiffany1
monica1 vanessa veronica alyssa destiny1 bailey1 maggie1 sophie1 max123 buddy1 rocky1 bella1
daisy1 lucky1 lucky7 lucky13 charlie2 bandit1 shadow2 princess2 prince1 king123 kingkong queen1
boss123 master12 master123 mustang1 camaro1 corvette1 porsche1 ferrari1 mercedes1 toyota1
nissan1 chevrolet harley1 yamaha1 suzuki kawasaki ducati harleydavidson mustang2 shelby1 ranger1
jaguar1 subaru hyundai america1 usa123 canada1 london1 france germany england scotland ireland
australia mexico brazil russia berlin madrid newyork1 chicago1 boston1 dallas1 california
florida1 hawaii alaska arizona phoenix1 denver seattle atlanta houston detroit toronto monday
tuesday wednesday thursday friday saturday sunday weekend holiday january february august1
september october november1 december1 christmas halloween easter birthday newyear valentine
happy1 happy123 happyday smiley crazy1 cool123 awesome amazing perfect beautiful pretty gorgeous
hottie hotstuff sexygirl badgirl goodgirl bestfriend friend friends1 family1 mom123 mother1
father brother sister baby123 babyboy babydoll sweetpea whatever2 nothing2 something anything
everything somebody nobody someone hello12 hello1234 hellokitty welcome2 goodbye test12 test123
test1234 testing1 testtest tester demo123 sample admin12 admin1234 adminadmin administrator1
root123 rootroot sysadmin system system1 manager manager1 service support support1 operator
supervisor superuser superman2 batman2 spiderman1 ironman captainamerica avengers marvel
dccomics batman123 wonderwoman greenlantern aquaman superboy starwars2 darthvader skywalker
lukeskywalker chewbacca hansolo startrek1 enterprise matrix1 morpheus terminator predator
gandalf1 hobbit sauron mordor harrypotter hogwarts hermione dumbledore voldemort slytherin
gryffindor potter wizard1 merlin1 dragon12 dragons phoenix2 griffin kraken lucifer hell666
darkside darkness1 killer12 killers murder bloody zombie vampire ghosts monster1 savage warrior1
soldier marine1 sniper1 ninja1 samurai shogun karate kungfu taekwondo legend1 heroes champion
winner1 victory success1 money1 money123 dollar dollars million millions billion silver1
diamond1 platinum1 crystal1 emerald sapphire music1 musician guitar1 drummer singer rocknroll
rockstar metallica1 slayer1 megadeth ironmaiden ledzeppelin beatles1 nirvana1 greenday
linkinpark eminem1 biggie rihanna beyonce madonna britney justinbieber onedirection taylorswift
coffee1 whiskey tequila martini cocktail party1 partytime rockon peace1 freedom1 liberty justice
orange2 purple2 yellow1 green1 blue123 black1 silver2 violet indigo magenta maroon computer2
laptop desktop keyboard mouse1 monitor1 printer server network hacker hacking hacker1 security
secure secure1 qwerty!@ !@#$%^ !@#$%^&* !qaz2wsx 1qaz!qaz 1q2w3e! qwe!@# asd!@# abc!@# 123!@#
123456789! monkey123 iloveyou123 iloveyou12 loveyou1 loveyou123 ihateyou fuckoff fuckme fuckyou1
asshole bitch1 shit123 dammit whatthe zxcvbnm, qwertyuiop[] 1q2w3e4r5t6y7u8i
1q2w3e4r5t6y7u8i9o0p qazwsxedcrfv qwert123 qwerty11 qwerty01 qwerty99 qwerty69 asdf123 asdfqwer
qwerasdf 1234qwerasdf q1w2e3r4t5y6u7 zaq!2wsx 1qazzaq1 2wsxzaq1 1qaz@wsx zaqwsx abc12345
abcde12345 abcdefg1 abcdef123 a12345 a123456789 a1234567 a12345678 aa12345678 aaa123 aaaaaa1
ab123456 asd123456 qq123456 q123456 q1234567 q12345678 w123456 z123456 zz123456 zxcv1234
1234567a 12345678a 1234567q 123456abc 123456qwe 123456asd 123456zxc 123456aa 1234aa 1234abc
1234qwe 123qweasdzxc 123asd 123zxc 1qaz2wsx3 qweasd123 112233445566 123123a 123321a 12345678q
11223344a 147258a 159357a 1234561 12345677 12345679 1234566 1234560 123455 123450 1234512345
123456123 123456654321 12345612 1234512 1231234 12341234a 121212a 19851985 19871987 19901990
20002000 summer2020 summer2021 summer2022 summer2023 summer2024 winter2020 winter2021 winter2022
winter2023 spring2023 autumn2023 spring2024 fall2023 password2020 password2021 password2022
password2023 password2024 welcome2020 welcome2021 welcome2022 welcome2023 welcome2024
january2024 december2023 covid19 coronavirus lockdown pandemic quarantine stayhome
`;

export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(LIST.split(/\s+/).filter(Boolean));
