#include "reports/xml_text.hpp"

#include <gtest/gtest.h>

namespace reports {
namespace {

TEST(XmlText, EscapesMarkup) {
  EXPECT_EQ(xml_text("a<b>&\"c\"'d'"), "a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;");
  EXPECT_EQ(xml_attribute("<&>"), "&lt;&amp;&gt;");
}

TEST(XmlText, ForbiddenControlCharactersBecomeVisible) {
  EXPECT_EQ(xml_text(std::string("a\x01"
                                 "b\x1b"
                                 "c") +
                     '\0'),
            "a\\x01b\\x1Bc\\x00");
  EXPECT_EQ(xml_text("x\ty\nz"), "x\ty\nz");  // allowed in content
  EXPECT_EQ(xml_text("x\r\x7f"), "x\\x0D\\x7F");
}

TEST(XmlText, AttributeKeepsLineBreaks) {
  EXPECT_EQ(xml_attribute("a\nb\tc"), "a&#10;b&#9;c");
}

TEST(XmlText, InvalidUtf8IsReplaced) {
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(xml_text("ok \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"),
            "ok \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");  // é € 😀 pass through
  EXPECT_EQ(xml_text("\xff"), fffd);
  EXPECT_EQ(xml_text("\xC3"), fffd);                        // truncated
  EXPECT_EQ(xml_text("\xC0\xAF"), fffd + fffd);             // overlong '/'
  EXPECT_EQ(xml_text("\xED\xA0\x80"), fffd + fffd + fffd);  // surrogate
  EXPECT_EQ(xml_text("\xEF\xBF\xBE"), fffd);                // U+FFFE, not an XML character
}

}  // namespace
}  // namespace reports
