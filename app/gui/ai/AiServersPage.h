#pragma once
// Edit > Preferences > AI servers: the servers the AI panel chooses from, with their kind, status
// and "de-identify before sending"; add one (kind + URL) or remove one; set the API key of a
// server that takes one (kept in the system keychain). Changes go to the
// AiController at once, as in the AI panel; the built-in engine is always there and is listed
// first, without a URL.
#include <QWidget>

class QComboBox;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace delineate::app {

class AiController;

class AiServersPage : public QWidget {
  Q_OBJECT

 public:
  explicit AiServersPage(AiController* ai, QWidget* parent = nullptr);

  QTableWidget* table() const { return table_; }
  QComboBox* kindBox() const { return kind_; }
  QLineEdit* urlEdit() const { return url_; }
  QPushButton* addButton() const { return add_; }
  QPushButton* removeButton() const { return remove_; }
  QPushButton* apiKeyButton() const { return apiKey_; }

 private:
  void rebuild();
  void addServer();
  void removeSelected();
  void updateButtons();
  // Asks for the selected server's API key (servers that use one: nnInteractive).
  void askApiKey();

  AiController* ai_;
  QTableWidget* table_;
  QComboBox* kind_;
  QLineEdit* url_;
  QPushButton* add_;
  QPushButton* remove_;
  QPushButton* apiKey_;
  bool rebuilding_ = false;
};

}  // namespace delineate::app
